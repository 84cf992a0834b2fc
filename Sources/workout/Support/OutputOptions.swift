import ArgumentParser

/// The option every command has: `--json`, for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text, for scripts (ISO 8601 dates, sorted keys).")
    var json = false
}
