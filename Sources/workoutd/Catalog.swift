import ArgumentParser
import WorkoutProtocol
import WorkoutServer

/// `workoutd catalog`: prints the method catalog, the one place methods are declared, in the
/// forms `scripts/generate-catalog.sh` writes into PROTOCOL.md, the .proto comments and
/// `Protocol/catalog.json`.
struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the protocol's method catalog (markdown, JSON, the .proto comments, or what device tokens may call).")

    /// What to print.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// PROTOCOL.md's table.
        case markdown
        /// `Protocol/catalog.json`.
        case json
        /// One line per method: its number, a tab, the comment above its `rpc`.
        case proto
        /// PROTOCOL.md 17's table of what device tokens may call.
        case tokens
    }

    @Option(help: "markdown, json, proto or tokens.")
    var format: Format = .markdown

    func run() {
        switch format {
        case .markdown:
            print(MethodCatalog.markdownTable())
        case .json:
            print(MethodCatalog.json(), terminator: "")
        case .proto:
            for method in MethodCatalog.all { print("\(method.number)\t\(MethodCatalog.protoComment(for: method))") }
        case .tokens:
            print(MethodCatalog.deviceTokenTable(endpoints: IngestRoutes.all))
        }
    }
}
