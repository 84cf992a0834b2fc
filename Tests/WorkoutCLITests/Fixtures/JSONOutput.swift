import Foundation
import Testing

extension String {
    /// This text (a command's `--json` output) as a JSON object.
    func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(self)", sourceLocation: sourceLocation)
    }
}
