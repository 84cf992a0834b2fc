import Foundation
import WorkoutProtocol

/// What each scenario sends, and what an answer leads to.
///
/// Request scenarios keep their connections open and their calls in flight. `household` runs a
/// script per app opening: reconnect → Auth.Resume → (GetProfile, MealsOfDay today,
/// WorkoutHistory) together → (LogMeal, LogWeight, ReportSteps) together → close. `connect`
/// runs reconnect → Login (or Resume) → close, and counts the whole as one call.
///
/// With `--rate`, a household connection begins a round per interval (rate / 7 rounds a second
/// over all connections, staggered) instead of at once after the last one. In a soak, one round
/// in `loginEveryRounds` logs in with the password (and logs out at its end, so that sessions
/// do not pile up), and the reads ask a random preloaded day, not today.
extension LoadDriver {
    /// Starts the load on every load connection.
    func startScenario(now: UInt64) throws {
        if settings.scenario.isRequestLoop {
            for (index, connection) in load.enumerated() {
                if rateInterval > 0 {
                    connection.nextDue = now + rateInterval * UInt64(index) / UInt64(load.count)
                } else {
                    try fill(connection, now: now)
                }
            }
        } else {
            for (index, connection) in load.enumerated() {
                disconnect(connection)
                if rateInterval > 0 {
                    connection.nextDue = now + rateInterval * UInt64(index) / UInt64(load.count)
                } else {
                    try beginCycle(connection, now: now)
                }
            }
        }
    }

    /// Closed loop: tops the connection up to `pipeline` calls in flight.
    @inline(__always)
    func fill(_ connection: LoadConnection, now: UInt64) throws {
        while issuing && connection.inFlight < settings.pipeline {
            try sendRequest(on: connection, sentAt: now)
        }
        try flush(connection)
    }

    /// Rate mode: sends every call whose time has come on connections with a free slot.
    func issueScheduledCalls(now: UInt64) throws {
        if !settings.scenario.isRequestLoop {
            for connection in load where connection.stage == .closed && connection.nextDue <= now {
                try beginCycle(connection, now: now)
            }
            return
        }
        for connection in load where connection.stage == .open {
            try issueDue(connection, now: now)
        }
    }

    /// Rate mode: sends the calls of `connection` that are due, each stamped with its intended
    /// send time.
    @inline(__always)
    func issueDue(_ connection: LoadConnection, now: UInt64) throws {
        var sent = false
        while issuing && connection.inFlight < settings.pipeline && connection.nextDue <= now {
            try sendRequest(on: connection, sentAt: connection.nextDue)
            connection.nextDue += rateInterval
            sent = true
        }
        if sent { try flush(connection) }
    }

    /// Appends one call of a request scenario.
    @inline(__always)
    func sendRequest(on connection: LoadConnection, sentAt: UInt64) throws {
        switch settings.scenario {
        case .mealsDay:
            let day = Int(random.next(below: UInt64(max(bodies.mealsOfDay.count, 1))))
            if bodies.mealsOfDay.isEmpty {
                try connection.startCall(method: MethodCatalog.mealsOfDay.number, body: bodies.mealsToday, purpose: .load, sentAt: sentAt)
            } else {
                try bodies.mealsOfDay[day].withUnsafeBytes {
                    try connection.startCall(method: MethodCatalog.mealsOfDay.number, body: $0, purpose: .load, sentAt: sentAt)
                }
            }
        case .progress:
            let day = Int(random.next(below: UInt64(bodies.progressOfDay.count)))
            try bodies.progressOfDay[day].withUnsafeBytes {
                try connection.startCall(method: MethodCatalog.progress.number, body: $0, purpose: .load, sentAt: sentAt)
            }
        case .foodSearch:
            let query = Int(random.next(below: UInt64(bodies.foodSearches.count)))
            try bodies.foodSearches[query].withUnsafeBytes {
                try connection.startCall(method: MethodCatalog.searchFoods.number, body: $0, purpose: .load, sentAt: sentAt)
            }
        case .history:
            try bodies.historyPage.withUnsafeBytes {
                try connection.startCall(method: MethodCatalog.workoutHistory.number, body: $0, purpose: .load, sentAt: sentAt)
            }
        case .logWeight:
            bodies.logWeight.stamp(milliseconds: Self.wallClockMilliseconds(), ids: &ids)
            try send(bodies.logWeight, on: connection, sentAt: sentAt)
        case .logWorkout:
            bodies.logWorkout.stamp(milliseconds: Self.wallClockMilliseconds(), ids: &ids)
            try send(bodies.logWorkout, on: connection, sentAt: sentAt)
        case .household, .connect:
            preconditionFailure("\(settings.scenario) is a scripted scenario")
        }
    }

    @inline(__always)
    private func send(_ template: RequestTemplate, on connection: LoadConnection, sentAt: UInt64) throws {
        try template.bytes.withUnsafeBytes {
            try connection.startCall(method: template.method, body: $0, purpose: .load, sentAt: sentAt)
        }
    }

    /// Milliseconds since the Unix epoch (`clock_gettime(CLOCK_REALTIME)`), for record times.
    @inline(__always)
    static func wallClockMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// A call of the scenario was answered.
    @inline(__always)
    func loadCallAnswered(_ answer: LoadConnection.Answer, on connection: LoadConnection, now: UInt64) throws {
        switch settings.scenario {
        case .logWeight, .logWorkout, .mealsDay, .history, .progress, .foodSearch:
            count(answer, latency: now &- answer.call.sentAt, now: now)
            if rateInterval > 0 {
                try issueDue(connection, now: now)
            } else if issuing {
                try fill(connection, now: now)
            }
        case .connect:
            // The whole cycle, from the connect, is the call.
            count(answer, latency: now &- connection.connectStartedAt, now: now)
            if phase == .measure && now < windowEndsAt { outcome.cycles += 1 }
            connection.roundFinished = true
        case .household:
            count(answer, latency: now &- answer.call.sentAt, now: now)
            connection.stepRemaining -= 1
            guard connection.stepRemaining == 0 else { return }
            try advanceHousehold(connection, now: now)
        }
    }

    /// Ends a script's round (the socket closes) and starts the next, unless the load has stopped.
    func finishRound(_ connection: LoadConnection, now: UInt64) throws {
        disconnect(connection)
        if rateInterval > 0 {
            // Open loop: the next round waits for its time (a late round begins at once).
            connection.nextDue += rateInterval
            guard connection.nextDue <= now else { return }
        }
        try beginCycle(connection, now: now)
    }

    /// Starts a script's next round on a closed connection, unless the load has stopped.
    func beginCycle(_ connection: LoadConnection, now: UInt64) throws {
        guard issuing else { return }
        connection.step = 0
        connection.roundsBegun += 1
        connection.roundSignsOut = settings.loginEveryRounds > 0 && settings.scenario == .household
            && connection.roundsBegun % UInt64(settings.loginEveryRounds) == 0
        try connect(connection, now: now)
    }

    /// A scripted connection finished its handshake: authenticate.
    func scriptedConnectionOpened(_ connection: LoadConnection, now: UInt64) throws {
        guard issuing else {
            disconnect(connection)
            return
        }
        let token = tokens[connection.member] ?? []
        switch settings.scenario {
        case .connect where settings.connectAuthentication == .login:
            try connection.startCall(
                method: MethodCatalog.login.number, body: bodies.memberLogins[connection.member], purpose: .load, sentAt: now)
        case .household where connection.roundSignsOut:
            try connection.startCall(
                method: MethodCatalog.login.number, body: bodies.memberLogins[connection.member], purpose: .load, sentAt: now)
        case .connect, .household:
            try connection.startCall(method: MethodCatalog.resume.number, body: try RequestBodies.resume(token: token), purpose: .load, sentAt: now)
        default:
            return
        }
        connection.step = 1
        connection.stepRemaining = 1
        try flush(connection)
    }

    /// The household script's next step, once every call of the current one is answered.
    private func advanceHousehold(_ connection: LoadConnection, now: UInt64) throws {
        guard issuing else {
            connection.roundFinished = true
            return
        }
        switch connection.step {
        case 1:
            if connection.roundSignsOut && phase == .measure { soak?.countLogin() }
            try connection.startCall(method: MethodCatalog.getProfile.number, body: [], purpose: .load, sentAt: now)
            if settings.readsPreloadedDays && !bodies.mealsOfDay.isEmpty {
                let day = Int(random.next(below: UInt64(bodies.mealsOfDay.count)))
                try bodies.mealsOfDay[day].withUnsafeBytes {
                    try connection.startCall(method: MethodCatalog.mealsOfDay.number, body: $0, purpose: .load, sentAt: now)
                }
            } else {
                try connection.startCall(method: MethodCatalog.mealsOfDay.number, body: bodies.mealsToday, purpose: .load, sentAt: now)
            }
            try connection.startCall(method: MethodCatalog.workoutHistory.number, body: bodies.historyPage, purpose: .load, sentAt: now)
            connection.step = 2
            connection.stepRemaining = 3
        case 2:
            let milliseconds = Self.wallClockMilliseconds()
            bodies.logMeal.stamp(milliseconds: milliseconds, ids: &ids)
            try send(bodies.logMeal, on: connection, sentAt: now)
            bodies.logWeight.stamp(milliseconds: milliseconds, ids: &ids)
            try send(bodies.logWeight, on: connection, sentAt: now)
            bodies.reportSteps.stamp(milliseconds: milliseconds, ids: &ids)
            try send(bodies.reportSteps, on: connection, sentAt: now)
            connection.step = 3
            connection.stepRemaining = 3
        case 3 where connection.roundSignsOut:
            try connection.startCall(method: MethodCatalog.logout.number, body: [], purpose: .load, sentAt: now)
            connection.step = 4
            connection.stepRemaining = 1
        default:
            if phase == .measure && now < windowEndsAt {
                outcome.cycles += 1
                soak?.countRound()
            }
            connection.roundFinished = true
            return
        }
        try flush(connection)
    }
}
