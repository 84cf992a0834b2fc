import Crypto
package import Foundation

/// Name-based UUIDs (version 5, RFC 9562 §5.5: SHA-1 of a namespace and a name): the same
/// record of the same source always gets the same id, on the phone and on the server.
package enum NameBasedUUID {
    /// The version-5 UUID of `name` in `namespace`.
    package static func version5(namespace: UUID, name: String) -> UUID {
        var hasher = Insecure.SHA1()
        withUnsafeBytes(of: namespace.uuid) { hasher.update(bufferPointer: $0) }
        hasher.update(data: Data(name.utf8))
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50     // version 5
        bytes[8] = (bytes[8] & 0x3F) | 0x80     // the RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
