import Foundation
import TestSupport
import Testing
import WorkoutClient
import WorkoutImport

/// The import checks a record with the server's own validation: a record the server would
/// refuse is skipped with the server's reason, not sent to fail its whole batch.
@Suite("The import skips what the server would refuse")
struct RecordChecksImportTests {
    @Test("A control character in a workout type is skipped with the server's reason (it used to pass and fail the batch)")
    func controlCharacterInType() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/sheet.csv"
            let sheet = """
                #workout,time,type,minutes
                workout,2024-03-10 07:30,running,30
                workout,2024-03-11 07:30,run\u{7},30
                #steps,day,steps,source
                steps,2024-03-10,-1,phone

                """
            try Data(sheet.utf8).write(to: URL(fileURLWithPath: path))
            var records: [ImportRecord] = []
            var issues: [ImportIssue] = []
            try ImportSources.open(path: path, format: .csv, defaultTimeZone: TimeZone(identifier: "UTC")!)
                .read(progress: ImportByteCounter()) { event in
                    switch event {
                    case .record(let record, _): records.append(record)
                    case .skipped(let issue): issues.append(issue)
                    }
                }
            #expect(records.count == 1)
            #expect(issues.contains { $0.line == 3 && $0.reason == "type must not contain control characters (found U+0007)" }, "\(issues)")
            #expect(issues.contains { $0.line == 5 }, "\(issues)")
        }
    }
}
