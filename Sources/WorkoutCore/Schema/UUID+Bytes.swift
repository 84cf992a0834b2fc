package import Foundation

/// Member and record ids as the store and the wire carry them: 16 bytes, in protobuf `bytes`
/// fields (`Data`) and in keys.
extension UUID {
    /// A UUID from 16 bytes; any other length gives the nil UUID (callers validate first).
    /// Contiguous bytes (a `Data` field, an array) are copied in one step: every stored record
    /// names its member this way, several times a write.
    package init(bytes: some Collection<UInt8>) {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if bytes.count == 16 {
            withUnsafeMutableBytes(of: &uuid) { raw in
                let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
                    raw.copyMemory(from: UnsafeRawBufferPointer(source))
                }
                if copied == nil {
                    for (offset, byte) in bytes.enumerated() { raw[offset] = byte }
                }
            }
        }
        self.init(uuid: uuid)
    }

    /// The 16 bytes of the UUID.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// The bytes as `Data`, as protobuf `bytes` fields want them.
    package var data: Data { withUnsafeBytes(of: uuid) { Data($0) } }
}
