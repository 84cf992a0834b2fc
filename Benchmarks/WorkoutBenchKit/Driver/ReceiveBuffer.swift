import SystemCalls
import WorkoutServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes one connection has received and not yet consumed: one allocation, reused for the
/// life of the connection, grown only when a frame is larger than it.
///
/// ```
/// +----------------+--------------------+------------------+
/// | consumed       | unread             | free             |
/// +----------------+--------------------+------------------+
/// 0            readIndex            writeIndex          capacity
/// ```
///
/// One owner: the connection. ``deallocate()`` must be called once.
struct ReceiveBuffer {
    private(set) var storage: UnsafeMutableRawBufferPointer
    private(set) var readIndex = 0
    private(set) var writeIndex = 0

    /// A buffer of `capacity` bytes.
    init(capacity: Int) {
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    /// The bytes received and not consumed.
    var unread: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[readIndex..<writeIndex])
    }

    /// The number of unread bytes.
    var unreadCount: Int { writeIndex - readIndex }

    /// Reads what `descriptor` has into the free space, once (make room first).
    ///
    /// Wraps `read(2)`.
    ///
    /// - Returns: The bytes read; 0 at end of stream; `nil` when nothing is there (EAGAIN).
    /// - Throws: ``SystemCallError`` for a failed read (e.g. ECONNRESET).
    mutating func read(from descriptor: Int32) throws -> Int? {
        let free = UnsafeMutableRawBufferPointer(rebasing: storage[writeIndex...])
        while true {
            let count = posixRead(descriptor, free.baseAddress, free.count)
            if count >= 0 {
                writeIndex += count
                return count
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: code)
        }
    }

    /// Lets `body` write into the free bytes (decrypted TLS data) and keeps what it wrote.
    ///
    /// - Returns: The bytes written.
    mutating func fill(_ body: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> Int {
        let count = try body(UnsafeMutableRawBufferPointer(rebasing: storage[writeIndex...]))
        writeIndex += count
        return count
    }

    /// The free bytes after the unread ones.
    var freeCount: Int { storage.count - writeIndex }

    /// Marks `count` unread bytes as consumed.
    mutating func consume(_ count: Int) {
        readIndex += count
        if readIndex == writeIndex {
            readIndex = 0
            writeIndex = 0
        }
    }

    /// Makes at least `count` free bytes: moves the unread bytes to the front, and grows the
    /// storage (doubling) when that is not enough.
    mutating func makeRoom(for count: Int) {
        if storage.count - writeIndex >= count { return }
        let unreadBytes = writeIndex - readIndex
        if readIndex > 0 {
            if unreadBytes > 0, let base = storage.baseAddress {
                memmove(base, base + readIndex, unreadBytes)
            }
            readIndex = 0
            writeIndex = unreadBytes
        }
        if storage.count - writeIndex >= count { return }
        var newCapacity = storage.count
        while newCapacity - writeIndex < count { newCapacity *= 2 }
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: newCapacity, alignment: 16)
        if writeIndex > 0 {
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<writeIndex]))
        }
        storage.deallocate()
        storage = grown
    }

    /// Frees the storage. Call once.
    func deallocate() {
        storage.deallocate()
    }
}
