/// The field paths of an ImportRecords batch: `records[3].workout.duration_seconds` names the
/// batch's fourth record. The client's import and the server's ingest both read which record
/// a refusal names, to leave it out and send the rest.
package enum ImportRecordPath {
    /// The index of the record `field` names (`records[12].workout.id` → 12); `nil` for a field
    /// of no record.
    package static func index(in field: String?) -> Int? {
        guard let field, field.hasPrefix("records["), let close = field.firstIndex(of: "]") else { return nil }
        return Int(field[field.index(field.startIndex, offsetBy: "records[".count)..<close])
    }
}
