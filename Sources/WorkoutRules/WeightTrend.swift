import Foundation

// WeightTrend: a smoothed weight, its rate, and when a target is reached at that rate.
//
// Weigh-ins scatter by a kilogram from day to day (water, meals), so the trend is smoothed:
//
//   - The entries of the 90 days up to the day are taken, one figure per day (the mean of
//     that day's entries).
//   - trend: an exponentially weighted moving average with a smoothing of 0.1 per day. The
//     first day's figure starts it; each later day's figure w, g days after the previous
//     one, moves it by a = 1 − 0.9^g of the difference: trend += a × (w − trend). A gap of
//     days weighs the new figure as that many days of the same reading would.
//   - change per week: the slope of the least-squares line through the daily figures of
//     the last 28 days, times 7; 0 unless those figures span at least 7 days.
//   - projected: the day the trend reaches the target at that rate, counting from the
//     requested day; none when the rate is 0 or leads away, or it is more than ten years
//     off. Within 0.25 kg of the target, the target is reached.

/// The weight trend up to a day.
package struct WeightTrendStanding: Equatable, Sendable {
    /// The smoothed weight, kg.
    package var trendKg: Double
    /// The change per week, kg (negative: losing).
    package var changePerWeekKg: Double
    /// The day the target is reached at the current rate, if it is.
    package var projected: LocalDay?
    /// Whether the trend is within 0.25 kg of the target.
    package var reached: Bool
}

/// The trend rules.
package enum WeightTrendRules {
    /// The days of entries the trend reads, up to and including the day.
    package static let windowDays: Int32 = 90
    /// The days of entries the rate reads.
    package static let rateWindowDays: Int32 = 28
    /// The smoothing per day.
    package static let smoothing = 0.1
    /// How close to the target counts as there, kg.
    package static let reachedWithinKg = 0.25
    /// The furthest projection, in days.
    package static let furthestProjectionDays: Int32 = 3_653

    /// The trend on `day` from weigh-ins, or `nil` when none lies in the window.
    ///
    /// - Parameters:
    ///   - entries: Weigh-ins as (local day, kg), in any order; those outside the window are
    ///     ignored.
    ///   - day: The day of the trend.
    ///   - targetKg: The target weight in effect on `day`, if any.
    package static func trend(of entries: [(day: LocalDay, kg: Double)], on day: LocalDay, targetKg: Double?) -> WeightTrendStanding? {
        let first = day.adding(days: -(windowDays - 1))
        var sums: [LocalDay: (total: Double, count: Double)] = [:]
        for entry in entries where entry.day >= first && entry.day <= day {
            let sum = sums[entry.day] ?? (0, 0)
            sums[entry.day] = (sum.total + entry.kg, sum.count + 1)
        }
        let daily = sums.sorted { $0.key < $1.key }.map { (day: $0.key, kg: $0.value.total / $0.value.count) }
        guard let start = daily.first else { return nil }
        var trend = start.kg
        var previous = start.day
        for point in daily.dropFirst() {
            let gap = Double(previous.days(to: point.day))
            trend += (1 - pow(1 - smoothing, gap)) * (point.kg - trend)
            previous = point.day
        }
        let rateStart = day.adding(days: -(rateWindowDays - 1))
        let recent = daily.filter { $0.day >= rateStart }
        var perWeek = 0.0
        if let oldest = recent.first, let newest = recent.last, oldest.day.days(to: newest.day) >= 7 {
            let xs = recent.map { Double(oldest.day.days(to: $0.day)) }
            let meanX = xs.reduce(0, +) / Double(xs.count)
            let meanY = recent.reduce(0) { $0 + $1.kg } / Double(recent.count)
            var covariance = 0.0, variance = 0.0
            for (x, point) in zip(xs, recent) {
                covariance += (x - meanX) * (point.kg - meanY)
                variance += (x - meanX) * (x - meanX)
            }
            perWeek = variance > 0 ? covariance / variance * 7 : 0
        }
        var standing = WeightTrendStanding(trendKg: trend, changePerWeekKg: perWeek, projected: nil, reached: false)
        if let targetKg {
            let distance = targetKg - trend
            if abs(distance) <= reachedWithinKg {
                standing.reached = true
            } else if perWeek != 0, (distance > 0) == (perWeek > 0) {
                let days = (distance / (perWeek / 7)).rounded(.up)
                if days <= Double(furthestProjectionDays) { standing.projected = day.adding(days: Int32(days)) }
            }
        }
        return standing
    }
}
