import Testing
import WorkoutServer

/// The process figures Admin.Stats reports.
@Suite("Process usage")
struct ProcessUsageTests {
    @Test("RssAnon and VmRSS are read from a /proc status text in bytes; missing lines give 0")
    func parsesStatus() {
        let text = "Name:\tworkoutd\nVmPeak:\t  900000 kB\nVmRSS:\t   51200 kB\nRssAnon:\t   20480 kB\nRssFile:\t   30720 kB\n"
        let memory = ProcessUsage.residentMemory(inStatus: text)
        #expect(memory.anonymous == 20_480 * 1024)
        #expect(memory.resident == 51_200 * 1024)
        let none = ProcessUsage.residentMemory(inStatus: "Name:\tx\n")
        #expect(none.anonymous == 0 && none.resident == 0)
    }

    @Test("The current process has used CPU time and, on Linux, holds anonymous memory")
    func currentProcess() {
        var sum = 0.0
        for index in 0..<200_000 { sum += Double(index).squareRoot() }
        #expect(sum > 0)
        let usage = ProcessUsage.current()
        #expect(usage.cpuMicroseconds > 0)
        #if os(Linux)
        #expect(usage.residentAnonymousBytes > 0 && usage.residentBytes >= usage.residentAnonymousBytes)
        #endif
    }
}
