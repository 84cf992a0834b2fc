import SystemCalls
import WorkoutServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinuxEvents
#endif

/// Tells the load generator's one thread which sockets are ready, and wakes it at a deadline.
///
/// On Linux: one epoll instance (level-triggered) and one timerfd for deadlines finer than
/// epoll_wait's milliseconds. Elsewhere: poll(2) over the registered descriptors, with a
/// millisecond timeout. Each descriptor is registered with a token (the caller's index for it);
/// ``wait(until:_:)`` hands back tokens with what they are ready for.
///
/// One owner, one thread: not thread-safe. ``close()`` must be called once.
package final class EventPoller {
    /// What a descriptor is ready for.
    package struct Readiness: Sendable {
        /// The token it was registered with.
        package var token: Int
        /// Bytes (or end of stream) can be read.
        package var readable: Bool
        /// Bytes can be written (or a non-blocking connect finished).
        package var writable: Bool
        /// An error or hang-up: read to learn which.
        package var failed: Bool
    }

    #if os(Linux)
    private var epoll: Int32
    private var timer: Int32
    private var armedDeadline: UInt64 = 0
    private let events: UnsafeMutablePointer<epoll_event>
    /// The token of the timer's own readiness, never handed out.
    private static let timerToken = UInt64.max
    #else
    private var watched: [(descriptor: Int32, token: Int, writable: Bool)] = []
    #endif
    private let capacity: Int
    private var closed = false

    /// Makes a poller that reports at most `capacity` descriptors per wait.
    ///
    /// - Throws: ``SystemCallError`` from `epoll_create1` or `timerfd_create`.
    package init(capacity: Int = 1024) throws {
        self.capacity = capacity
        #if os(Linux)
        epoll = try SystemCall.retrying("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            timer = try SystemCall.retrying("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        } catch {
            posixClose(epoll)
            throw error
        }
        events = .allocate(capacity: capacity)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.timerToken
        _ = try SystemCall.retrying("epoll_ctl(ADD timerfd)") { epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &event) }
        #endif
    }

    deinit {
        assert(closed, "EventPoller was not closed")
    }

    /// Watches `descriptor` for reading, and for writing when `writable`.
    ///
    /// - Throws: ``SystemCallError`` from `epoll_ctl`.
    package func register(_ descriptor: Int32, token: Int, writable: Bool) throws {
        #if os(Linux)
        var event = Self.event(token: token, writable: writable)
        _ = try SystemCall.retrying("epoll_ctl(ADD)") { epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) }
        #else
        watched.append((descriptor, token, writable))
        #endif
    }

    /// Changes whether `descriptor` is watched for writing.
    ///
    /// - Throws: ``SystemCallError`` from `epoll_ctl`.
    package func modify(_ descriptor: Int32, token: Int, writable: Bool) throws {
        #if os(Linux)
        var event = Self.event(token: token, writable: writable)
        _ = try SystemCall.retrying("epoll_ctl(MOD)") { epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event) }
        #else
        if let index = watched.firstIndex(where: { $0.descriptor == descriptor }) { watched[index].writable = writable }
        #endif
    }

    /// Stops watching `descriptor` (before it is closed).
    package func unregister(_ descriptor: Int32) {
        #if os(Linux)
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &event)
        #else
        watched.removeAll { $0.descriptor == descriptor }
        #endif
    }

    #if os(Linux)
    private static func event(token: Int, writable: Bool) -> epoll_event {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = UInt64(token)
        return event
    }
    #endif

    /// Waits until a descriptor is ready or the monotonic clock reaches `deadline`
    /// (``MonotonicClock`` nanoseconds), and hands each ready descriptor to `body`.
    ///
    /// - Parameters:
    ///   - deadline: When to return even if nothing is ready.
    ///   - body: Called once per ready descriptor.
    /// - Throws: ``SystemCallError`` from `epoll_wait`/`poll`, or what `body` throws.
    package func wait(until deadline: UInt64, _ body: (Readiness) throws -> Void) throws {
        #if os(Linux)
        let now = MonotonicClock.now()
        var timeout: Int32 = 0
        if deadline > now {
            let remaining = deadline - now
            if remaining >= 5_000_000 {
                // Far enough for epoll_wait's milliseconds (rounded down, the timer catches the rest).
                timeout = Int32(clamping: remaining / 1_000_000)
            } else {
                try arm(deadline)
                timeout = 10
            }
        }
        let count = try SystemCall.retrying("epoll_wait") { epoll_wait(epoll, events, Int32(capacity), timeout) }
        for index in 0..<Int(count) {
            let event = events[index]
            let token = event.data.u64
            if token == Self.timerToken {
                var expirations: UInt64 = 0
                _ = posixRead(timer, &expirations, 8)
                armedDeadline = 0
                continue
            }
            let flags = event.events
            try body(Readiness(
                token: Int(token),
                readable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                writable: flags & EPOLLOUT.rawValue != 0,
                failed: flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0))
        }
        #else
        let now = MonotonicClock.now()
        let timeout = deadline > now ? Int32(clamping: (deadline - now + 999_999) / 1_000_000) : 0
        var descriptors = watched.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN) | ($0.writable ? Int16(POLLOUT) : 0), revents: 0) }
        let count = try SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), timeout) }
        guard count > 0 else { return }
        let snapshot = watched
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            try body(Readiness(
                token: snapshot[index].token,
                readable: descriptor.revents & Int16(POLLIN) != 0,
                writable: descriptor.revents & Int16(POLLOUT) != 0,
                failed: descriptor.revents & (Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)) != 0))
        }
        #endif
    }

    #if os(Linux)
    /// Sets the timer to fire at `deadline` (absolute, CLOCK_MONOTONIC), unless it already does.
    private func arm(_ deadline: UInt64) throws {
        guard deadline != armedDeadline else { return }
        var specification = itimerspec()
        specification.it_value.tv_sec = Int(deadline / 1_000_000_000)
        specification.it_value.tv_nsec = Int(deadline % 1_000_000_000)
        _ = try SystemCall.retrying("timerfd_settime") { timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &specification, nil) }
        armedDeadline = deadline
    }
    #endif

    /// Closes the poller's own descriptors (not the watched ones). Call once.
    package func close() {
        precondition(!closed, "EventPoller closed twice")
        closed = true
        #if os(Linux)
        posixClose(timer)
        posixClose(epoll)
        events.deallocate()
        #endif
    }
}
