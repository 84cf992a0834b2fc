import Foundation
import WorkoutClient

/// The zone `workout` reads and shows times in: the member's profile zone, the one their
/// days, streaks and the dashboard count in, whatever this machine's zone (`TZ`). A Berlin
/// member on a laptop set to UTC sees her 08:00 breakfast at 08:00, and `--at 07:00` or
/// `--day today` mean Berlin's. Records are logged with its name, so the server counts their
/// day in it too.
///
/// The zone is kept with the credentials (``Credentials/timeZone``: stored at login and
/// register, refreshed whenever a command sees the profile), so no command spends a call on
/// it. Credentials stored before they kept it get it from the server once; where the server
/// cannot be reached, times are read and shown in this machine's zone, and ``note`` says so.
struct MemberZone: Sendable, Equatable {
    /// The zone times are read and shown in.
    let zone: TimeZone
    /// This machine's zone.
    let machine: TimeZone
    /// Whether ``zone`` is the profile's; else it is this machine's, the profile's not being
    /// known here.
    let isProfileZone: Bool
    /// Its IANA name, sent with records and queries: the profile's as the server keeps it
    /// (Foundation on Linux calls `UTC` `GMT`), else this machine's.
    let identifier: String

    /// The profile's zone, or this machine's when `profileZone` is `nil` or names no zone.
    ///
    /// - Parameters:
    ///   - profileZone: The profile's zone, as last seen from the server.
    ///   - machine: This machine's zone.
    init(profileZone: String?, machine: TimeZone = .current) {
        self.machine = machine
        if let profileZone, let zone = TimeZone(identifier: profileZone) {
            self.zone = zone
            isProfileZone = true
            identifier = profileZone
        } else {
            zone = machine
            isProfileZone = false
            identifier = Self.name(of: machine)
        }
    }

    /// The zone stored with the credentials in `store`, never asking the server (this
    /// machine's when there are none): for the checks made before the session is opened, so
    /// that bad input is refused first, signed in or not.
    static func stored(in store: CredentialStore = CredentialStore()) -> MemberZone {
        MemberZone(profileZone: (try? store.load())?.timeZone)
    }

    /// A zone's name as people know it: `UTC` where Foundation on Linux says `GMT`.
    static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// Today, in this zone.
    ///
    /// - Parameter now: The current time.
    func today(now: Date = Date()) -> LocalDate {
        LocalDate(now, in: zone)
    }

    /// The last line of a command's output for people when times are not in this machine's
    /// zone (or the profile's zone is not known): `Times are in Europe/Berlin, the profile's
    /// zone (this machine: UTC).`; `nil` when the two zones keep the same time.
    var note: String? {
        guard isProfileZone else {
            return "Times are in \(Self.name(of: machine)), this machine's zone: the profile's is not known here yet (`workout whoami` fetches it)."
        }
        guard !Self.keepSameTime(zone, machine) else { return nil }
        return "Times are in \(identifier), the profile's zone (this machine: \(Self.name(of: machine)))."
    }

    /// Prints ``note``, if any, as a line of output.
    func printNote() {
        if let note { Output.line(note) }
    }

    /// Whether two zones read every instant alike: the same name, or (`UTC`, `Etc/UTC`, `GMT`)
    /// the same offset in winter and in summer.
    static func keepSameTime(_ a: TimeZone, _ b: TimeZone, now: Date = Date()) -> Bool {
        if a.identifier == b.identifier { return true }
        let halfYear: TimeInterval = 182 * 86_400
        return [now, now.addingTimeInterval(halfYear)].allSatisfy { a.secondsFromGMT(for: $0) == b.secondsFromGMT(for: $0) }
            && a.nextDaylightSavingTimeTransition(after: now) == b.nextDaylightSavingTimeTransition(after: now)
    }
}

extension SignedInSession {
    /// The member's zone as stored with the credentials, never asking the server: this
    /// machine's when they hold none (see ``memberZone()``).
    var storedZone: MemberZone {
        MemberZone(profileZone: credentials.timeZone)
    }

    /// The member's zone: the profile's as stored with the credentials; without it (credentials
    /// from before they kept it), the profile is asked for once and its zone stored; when that
    /// fails (offline), this machine's zone.
    ///
    /// - Returns: The zone to read and show times in.
    func memberZone() async -> MemberZone {
        if credentials.timeZone != nil { return storedZone }
        guard let snapshot = try? await client.profile() else { return MemberZone(profileZone: nil) }
        remember(snapshot.profile)
        return MemberZone(profileZone: snapshot.profile.timeZone)
    }

    /// Keeps the profile's zone with the credentials when it is not what they hold.
    ///
    /// - Parameter profile: The member's profile, as the server just gave it.
    func remember(_ profile: Profile) {
        Credentials.rememberZone(profile.timeZone, of: credentials, in: store)
    }
}

extension Credentials {
    /// Stores `zone` with `credentials` in `store` when it is not what they hold; a failure to
    /// write is not this command's failure (the zone is asked for again next time).
    static func rememberZone(_ zone: String, of credentials: Credentials, in store: CredentialStore) {
        guard credentials.timeZone != zone else { return }
        // What the file holds now, unless another `workout login` replaced the session meanwhile.
        guard var updated = (try? store.load()) ?? nil, updated.sessionToken == credentials.sessionToken else { return }
        updated.timeZone = zone
        try? store.save(updated)
    }
}
