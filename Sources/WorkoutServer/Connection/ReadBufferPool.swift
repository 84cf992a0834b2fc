import Synchronization

/// Read buffers shared by all connections: a connection borrows one for a read and gives it
/// back, so a thousand idle connections do not each hold 64 KiB.
final class ReadBufferPool: Sendable {
    private struct Buffers: @unchecked Sendable {
        // Safe because: each buffer is owned by the pool or by exactly one borrower at a time.
        var free: [UnsafeMutableRawBufferPointer] = []
    }

    private let buffers = Mutex(Buffers())
    private let size: Int
    private let keep: Int

    init(size: Int, keep: Int = 16) {
        self.size = size
        self.keep = keep
    }

    deinit {
        for buffer in buffers.withLock({ $0.free }) { buffer.deallocate() }
    }

    /// Runs `body` with a buffer of the pool's size.
    func withBuffer<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        let buffer = buffers.withLock { $0.free.popLast() }
            ?? UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer {
            let kept = buffers.withLock { state -> Bool in
                guard state.free.count < keep else { return false }
                state.free.append(buffer)
                return true
            }
            if !kept { buffer.deallocate() }
        }
        return try body(buffer)
    }
}
