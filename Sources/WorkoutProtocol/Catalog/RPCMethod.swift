package import SwiftProtobuf

/// A method of the protocol: its fixed number, its name, its messages and who may call it.
/// Typed by its request and response, so a client call and a server handler cannot disagree.
package struct RPCMethod<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>: Sendable {
    /// The description shared with untyped code.
    package let descriptor: MethodDescriptor

    /// Declares a method.
    init(_ number: UInt32, _ name: String, streaming: Bool, session: Bool, admin: Bool, token: DeviceTokenAccess, _ summary: String) {
        descriptor = MethodDescriptor(
            number: number, name: name,
            requestType: Request.protoMessageName, responseType: Response.protoMessageName,
            isServerStreaming: streaming, needsSession: session, adminOnly: admin, tokenAccess: token, summary: summary,
            transcoder: MessageTranscoder(Request.self, Response.self))
    }

    /// The method's number, the REQUEST frame's `code`.
    package var number: UInt32 { descriptor.number }
}
