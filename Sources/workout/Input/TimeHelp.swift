import ArgumentParser

/// Help texts shared by the commands that take a time.
enum TimeHelp {
    /// `--at`'s help.
    static let at = ArgumentHelp(
        "When: HH:MM (today), YYYY-MM-DDTHH:MM (in your profile's time zone) or ISO 8601 with an offset, e.g. 2025-06-01T07:30:00+02:00 (default: now).",
        valueName: "time")
}
