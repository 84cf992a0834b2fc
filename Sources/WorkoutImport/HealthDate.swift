import Foundation
import WorkoutClient

/// A time as Apple Health's export writes it: `2024-03-10 08:01:02 +0100`, the wall clock and
/// its offset from UTC.
struct HealthDate: Hashable {
    /// The instant.
    var date: Date
    /// The offset of the wall clock it was written in, in seconds east of UTC.
    var offsetSeconds: Int

    /// The local day of the wall clock it was written in.
    var localDay: LocalDate {
        LocalDate(epochDay: Int(((date.timeIntervalSince1970 + Double(offsetSeconds)) / 86_400).rounded(.down)))
    }

    /// The hour of that wall clock, 0...23.
    var localHour: Int {
        let seconds = Int((date.timeIntervalSince1970 + Double(offsetSeconds)).rounded(.down))
        return ((seconds % 86_400 + 86_400) % 86_400) / 3_600
    }

    /// An IANA name of a zone with the offset (`Etc/GMT-1` is UTC+1: the tz database's signs
    /// are inverted), `UTC` for 0, or `nil` for an offset that is not whole hours within
    /// -12...+14 h (then the member's profile zone applies).
    var zoneName: String? {
        guard offsetSeconds % 3_600 == 0 else { return nil }
        let hours = offsetSeconds / 3_600
        switch hours {
        case 0: return "UTC"
        case 1...14: return "Etc/GMT-\(hours)"
        case -12 ... -1: return "Etc/GMT+\(-hours)"
        default: return nil
        }
    }

    /// Parses `YYYY-MM-DD HH:MM:SS ±HHMM`; `nil` for anything else.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x20, bytes[20] == 0x2B || bytes[20] == 0x2D
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2), let offsetHours = number(21, 2),
              let offsetMinutes = number(23, 2), let localDate = LocalDate(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 61, offsetHours <= 18, offsetMinutes < 60
        else { return nil }
        let offset = (bytes[20] == 0x2D ? -1 : 1) * (offsetHours * 3_600 + offsetMinutes * 60)
        let local = localDate.epochDay * 86_400 + hour * 3_600 + minute * 60 + second
        self.date = Date(timeIntervalSince1970: Double(local - offset))
        self.offsetSeconds = offset
    }
}
