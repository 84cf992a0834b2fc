package import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import WorkoutRules

/// The workouts of a GPX or TCX file: the XML formats of a recorded track (GPX 1.1, what
/// Strava, Komoot and most apps export) and of Garmin's Training Center (TCX, what Garmin
/// Connect and Strava export beside FIT), read with XMLParser.
///
/// * **GPX**: one workout per `<trk>`: its `<type>` as the kind (`running`; `other` without
///   one), from its first `<trkpt>`'s `<time>` to its last, the distance along its points
///   (great-circle, between consecutive points), the height climbed (rises counted once they
///   reach 3 m, so GPS noise does not add up), and the heart rate of Garmin's and Strava's
///   `<gpxtpx:hr>` extension.
/// * **TCX**: one workout per `<Activity>`: its `Sport` attribute as the kind, its `<Id>` as
///   the start, the sum of its laps' `TotalTimeSeconds`, `DistanceMeters` and `Calories`, the
///   laps' time-weighted average heart rate and their maximum, and the height climbed from the
///   trackpoints' `AltitudeMeters` as for GPX.
///
/// A file with more than ``maxPoints`` points, or that is not well-formed XML, is refused whole.
package enum TrackFiles {
    /// The largest file read.
    package static let maxBytes = 64 << 20
    /// The most track points read from one file: a day recorded every second is 86,400.
    static let maxPoints = 500_000
    /// The rise (or fall) in metres that counts as a change of height.
    static let climbThreshold = 3.0

    /// The workouts of a GPX (`tcx` false) or TCX file.
    ///
    /// - Throws: ``WorkoutFileError`` for a file that is not of the format, not well-formed,
    ///   too large, or with too many points.
    package static func read(_ bytes: Data, tcx: Bool) throws(WorkoutFileError) -> FITActivityFile.Contents {
        let name = tcx ? "TCX" : "GPX"
        guard bytes.count <= maxBytes else {
            throw WorkoutFileError("the \(name) file is \(bytes.count) bytes; files over \(maxBytes >> 20) MiB are not read")
        }
        let reader = TrackReader(tcx: tcx)
        let parser = XMLParser(data: bytes)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let refusal = reader.refusal { throw WorkoutFileError(refusal) }
        guard parsed else {
            throw WorkoutFileError("the \(name) file is not well-formed XML (line \(parser.lineNumber)): \(parser.parserError.map { "\($0.localizedDescription)" } ?? "it ends early")")
        }
        guard reader.rootEnded else {
            throw WorkoutFileError("the \(name) file ends early (line \(parser.lineNumber)): its last element is not closed")
        }
        guard reader.sawRoot else {
            throw WorkoutFileError("the file is not \(name): it has no <\(tcx ? "TrainingCenterDatabase" : "gpx")> element")
        }
        return reader.contents
    }

    /// The distance in metres between two points on the Earth (haversine, mean radius).
    static func metres(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let radius = 6_371_008.8
        let (lat1, lat2) = (a.0 * .pi / 180, b.0 * .pi / 180)
        let dLat = lat2 - lat1, dLon = (b.1 - a.1) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, h.squareRoot()))
    }

    /// An ISO 8601 instant (`2026-11-02T07:00:00Z`, with a fraction or an offset).
    static func instant(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: trimmed) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: trimmed)
    }
}

/// Climbs counted with a threshold: a rise counts once it reaches ``TrackFiles/climbThreshold``
/// above the last height counted from, so the noise of GPS heights does not add up.
struct ClimbCounter {
    private var reference: Double?
    private(set) var metres = 0.0

    mutating func add(_ height: Double) {
        guard height.isFinite else { return }
        guard let base = reference else { reference = height; return }
        if height - base >= TrackFiles.climbThreshold {
            metres += height - base
            reference = height
        } else if base - height >= TrackFiles.climbThreshold {
            reference = height
        }
    }
}

/// The XMLParser delegate that gathers a GPX file's tracks or a TCX file's activities.
private final class TrackReader: NSObject, XMLParserDelegate {
    let tcx: Bool
    var contents = FITActivityFile.Contents()
    var sawRoot = false
    /// Whether the root element was closed: a file cut short is not read in part.
    var rootEnded = false
    var refusal: String?
    private var points = 0
    private var path: [String] = []
    private var text = ""

    // The track or activity being read.
    private var kind: String?
    private var name = ""
    private var identity = ""
    private var first: Date?
    private var last: Date?
    private var distance = 0.0
    private var previous: (Double, Double)?
    private var climb = ClimbCounter()
    private var heartRates: [Double] = []
    private var pointHeight: Double?
    private var pointTime: Date?
    private var pointPosition: (Double, Double)?
    // A TCX activity's laps.
    private var lapSeconds = 0.0
    private var lapMetres = 0.0
    private var lapCalories = 0.0
    private var lapAverage: Double?
    private var lapMaximum: Double?
    private var totals = (seconds: 0.0, metres: 0.0, calories: 0.0, beats: 0.0, beatSeconds: 0.0, maximum: 0.0)
    private var activityStart: Date?
    /// Whether a TCX activity's trackpoints carry positions: it moved outdoors.
    private var sawPosition = false

    init(tcx: Bool) { self.tcx = tcx }

    /// An element's name without its namespace prefix (`gpxtpx:hr` → `hr`).
    private static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let element = Self.local(elementName)
        path.append(element)
        text = ""
        if path.count == 1 { sawRoot = element == (tcx ? "TrainingCenterDatabase" : "gpx") }
        switch element {
        case "trk" where !tcx:
            startActivity()
        case "Activity" where tcx:
            startActivity()
            kind = attributes["Sport"].flatMap(WorkoutFileSports.workoutType(named:))
        case "trkpt" where !tcx, "Trackpoint" where tcx:
            points += 1
            if points > TrackFiles.maxPoints {
                refusal = "the file has more than \(TrackFiles.maxPoints) track points; split it"
                parser.abortParsing()
            }
            pointHeight = nil
            pointTime = nil
            pointPosition = nil
            if let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
               (-90...90).contains(lat), (-180...180).contains(lon) {
                pointPosition = (lat, lon)
            }
        case "Lap" where tcx:
            lapSeconds = 0; lapMetres = 0; lapCalories = 0; lapAverage = nil; lapMaximum = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 256 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let element = Self.local(elementName)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        defer {
            path.removeLast()
            text = ""
            if path.isEmpty { rootEnded = true }
        }
        if tcx {
            endTCX(element, value: value, parent: parent)
        } else {
            endGPX(element, value: value, parent: parent)
        }
    }

    private func startActivity() {
        kind = nil; name = ""; identity = ""; first = nil; last = nil; distance = 0; previous = nil
        climb = ClimbCounter(); heartRates = []; activityStart = nil; sawPosition = false
        totals = (0, 0, 0, 0, 0, 0)
    }

    private func endGPX(_ element: String, value: String, parent: String) {
        switch element {
        case "name" where parent == "trk": name = String(value.prefix(200))
        case "type" where parent == "trk": kind = WorkoutFileSports.workoutType(named: value)
        case "ele" where parent == "trkpt": pointHeight = Double(value)
        case "time" where parent == "trkpt": pointTime = TrackFiles.instant(value)
        case "hr": if let beats = Double(value), beats.isFinite { heartRates.append(beats) }
        case "trkpt": endPoint()
        case "trk":
            guard let first, let last else {
                contents.skipped.append("a GPX track without timed points")
                return
            }
            contents.activities.append(WorkoutFileActivity(
                type: kind ?? "other", start: first, durationSeconds: last.timeIntervalSince(first),
                distanceMetres: distance > 0 ? distance : nil, ascentMetres: climb.metres > 0 ? climb.metres : nil,
                averageHeartRate: heartRates.isEmpty ? nil : heartRates.reduce(0, +) / Double(heartRates.count),
                maxHeartRate: heartRates.max(), place: distance > 0 ? .outdoor : nil,
                identity: "gpx|\(first.timeIntervalSince1970)|\(last.timeIntervalSince1970)|\(name)"))
        default:
            break
        }
    }

    private func endPoint() {
        if let position = pointPosition {
            if let previous { distance += TrackFiles.metres(from: previous, to: position) }
            previous = position
        }
        if let height = pointHeight { climb.add(height) }
        if let time = pointTime {
            if first == nil || time < first! { first = time }
            if last == nil || time > last! { last = time }
        }
    }

    private func endTCX(_ element: String, value: String, parent: String) {
        switch element {
        case "Id" where parent == "Activity":
            identity = value
            activityStart = TrackFiles.instant(value)
        case "TotalTimeSeconds" where parent == "Lap": lapSeconds = Double(value) ?? 0
        case "DistanceMeters" where parent == "Lap": lapMetres = Double(value) ?? 0
        case "Calories" where parent == "Lap": lapCalories = Double(value) ?? 0
        case "Value" where parent == "AverageHeartRateBpm" && path.count >= 3 && path[path.count - 3] == "Lap": lapAverage = Double(value)
        case "Value" where parent == "MaximumHeartRateBpm" && path.count >= 3 && path[path.count - 3] == "Lap": lapMaximum = Double(value)
        case "AltitudeMeters" where parent == "Trackpoint": pointHeight = Double(value)
        case "LatitudeDegrees" where parent == "Position": sawPosition = true
        case "Time" where parent == "Trackpoint": pointTime = TrackFiles.instant(value)
        case "Trackpoint":
            if let height = pointHeight { climb.add(height) }
            if let time = pointTime, first == nil { first = time }
        case "Lap":
            guard lapSeconds.isFinite, lapSeconds >= 0 else { return }
            totals.seconds += lapSeconds
            if lapMetres.isFinite, lapMetres > 0 { totals.metres += lapMetres }
            if lapCalories.isFinite, lapCalories > 0 { totals.calories += lapCalories }
            if let average = lapAverage, average.isFinite, average > 0 {
                totals.beats += average * lapSeconds
                totals.beatSeconds += lapSeconds
            }
            if let maximum = lapMaximum, maximum.isFinite { totals.maximum = max(totals.maximum, maximum) }
        case "Activity":
            guard let start = activityStart ?? first else {
                contents.skipped.append("a TCX activity without a start (Id)")
                return
            }
            contents.activities.append(WorkoutFileActivity(
                type: kind ?? "other", start: start, durationSeconds: totals.seconds,
                distanceMetres: totals.metres > 0 ? totals.metres : nil, ascentMetres: climb.metres > 0 ? climb.metres : nil,
                kilocalories: totals.calories > 0 ? totals.calories : nil,
                averageHeartRate: totals.beatSeconds > 0 ? totals.beats / totals.beatSeconds : nil,
                maxHeartRate: totals.maximum > 0 ? totals.maximum : nil, place: sawPosition ? .outdoor : nil,
                identity: "tcx|\(identity.isEmpty ? "\(start.timeIntervalSince1970)" : identity)"))
        default:
            break
        }
    }
}
