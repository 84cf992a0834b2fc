/// A value that a table stores as bytes.
///
/// Records are stored in a versioned encoding of their own (in this project, protobuf
/// messages, so fields can be added later); this protocol is all the storage layer needs.
package protocol StoredValue: Sendable {
    /// Decodes a stored value. The bytes are valid only during the call: copy what you keep.
    ///
    /// - Throws: any error when the bytes are not a valid encoding; the storage layer wraps
    ///   it in a ``StorageError`` with code `corruptValue` naming the table and key.
    init(storedBytes: UnsafeRawBufferPointer) throws

    /// Encodes the value for storage.
    func storedBytes() throws -> [UInt8]
}

/// Raw bytes stored as they are.
extension Array: StoredValue where Element == UInt8 {
    package init(storedBytes: UnsafeRawBufferPointer) throws { self = Array(storedBytes) }
    package func storedBytes() throws -> [UInt8] { self }
}
