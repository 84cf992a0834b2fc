import ArgumentParser
import WorkoutProtocol

/// `workoutd catalog`: prints the method catalog, the one place methods are declared, in the
/// forms `scripts/generate-catalog.sh` writes into PROTOCOL.md, the .proto comments and
/// `Protocol/catalog.json`.
struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the protocol's method catalog (markdown, JSON, or the .proto comments).")

    /// What to print.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// PROTOCOL.md's table.
        case markdown
        /// `Protocol/catalog.json`.
        case json
        /// One line per method: its number, a tab, the comment above its `rpc`.
        case proto
    }

    @Option(help: "markdown, json or proto.")
    var format: Format = .markdown

    func run() {
        switch format {
        case .markdown:
            print(MethodCatalog.markdownTable())
        case .json:
            print(MethodCatalog.json(), terminator: "")
        case .proto:
            for method in MethodCatalog.all { print("\(method.number)\t\(MethodCatalog.protoComment(for: method))") }
        }
    }
}
