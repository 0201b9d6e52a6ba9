import Foundation
import HeartworkCore

/// The activity file formats Heartwork reads and writes, and the one door to them: a file's
/// format from its media type, its extension or its first bytes; a file's bytes → a workout;
/// a workout → a file's bytes.
public enum ActivityFileFormat: String, Sendable, Hashable, CaseIterable {
    case fit, tcx, gpx, json

    /// The media types `POST /api/workouts` takes and exports answer with.
    public var mediaType: String {
        switch self {
        case .fit: "application/vnd.ant.fit"
        case .tcx: "application/vnd.garmin.tcx+xml"
        case .gpx: "application/gpx+xml"
        case .json: "application/json"
        }
    }

    public init?(mediaType: String) {
        let bare = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch bare {
        case "application/vnd.ant.fit": self = .fit
        case "application/vnd.garmin.tcx+xml": self = .tcx
        case "application/gpx+xml": self = .gpx
        case "application/json": self = .json
        default: return nil
        }
    }

    /// By a file name's extension (`ride.FIT`, `run.tcx`, `walk.gpx`, `workout.json`).
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// By content: the FIT header's ".FIT", an XML root element, a JSON object.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(4096))
        if head.count >= 12, head[8] == UInt8(ascii: "."), head[9] == UInt8(ascii: "F"), head[10] == UInt8(ascii: "I"), head[11] == UInt8(ascii: "T") {
            self = .fit
            return
        }
        switch ActivityXMLReader.kind(of: head) {
        case .gpx?: self = .gpx
        case .tcx?: self = .tcx
        case nil:
            let first = head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
            guard first == UInt8(ascii: "{") else { return nil }
            self = .json
        }
    }
}

/// Why a file does not make a workout: what was wrong, and where when the format says.
public struct ActivityFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}

public enum ActivityFiles {
    /// The recording a FIT, TCX or GPX file holds (nil for JSON, which is a workout already).
    public static func recording(_ bytes: [UInt8], format: ActivityFileFormat) -> ActivityRecording? {
        switch format {
        case .fit: FITActivityReader.read(bytes)
        case .tcx, .gpx: ActivityXMLReader.read(bytes)
        case .json: nil
        }
    }

    /// A file's bytes as a workout with what its reading met (a cut end, a value left out:
    /// the file's warnings, with their byte or line), or why it makes no workout.
    public static func read(_ bytes: [UInt8], format: ActivityFileFormat) throws(ActivityFileError) -> (workout: NewWorkout, warnings: [FileWarning]) {
        guard format != .json, let recording = recording(bytes, format: format) else { return (try workout(bytes, format: format), []) }
        var warnings = recording.warnings
        // Records out of time order (a clock stepping back) are put in order: said, not hidden.
        let back = zip(recording.records, recording.records.dropFirst()).filter { $0.time > $1.time }.count
        if back > 0 {
            warnings.append(FileWarning(offset: 0, message: "\(back) record\(back == 1 ? "" : "s") whose time went back (a clock's step) put in time order"))
        }
        return (try workout(recording, bytes: bytes, format: format), warnings)
    }

    /// A file's bytes as a workout, or what was wrong with them.
    public static func workout(_ bytes: [UInt8], format: ActivityFileFormat) throws(ActivityFileError) -> NewWorkout {
        if format == .json {
            do {
                return try WorkoutJSON.read(bytes)
            } catch {
                throw ActivityFileError(error.description)
            }
        }
        guard let recording = recording(bytes, format: format) else { throw ActivityFileError("not a \(format.rawValue.uppercased()) file") }
        return try workout(recording, bytes: bytes, format: format)
    }

    /// The workout of a recording already decoded from `bytes` (FIT, TCX or GPX), with the same
    /// checks as `workout(_:format:)`: callers that also show the recording decode it once.
    public static func workout(_ recording: ActivityRecording, bytes: [UInt8], format: ActivityFileFormat) throws(ActivityFileError) -> NewWorkout {
        if format != .fit, let wrongRoot = recording.warnings.first(where: { $0.message.contains("neither GPX") || $0.message.contains("not a GPX or TCX") }) {
            throw ActivityFileError("not a \(format.rawValue.uppercased()) file: \(wrongRoot)")
        }
        if format != .fit, let kind = ActivityXMLReader.kind(of: bytes), kind.rawValue != format.rawValue {
            throw ActivityFileError("the file is \(kind.rawValue.uppercased()), not \(format.rawValue.uppercased())")
        }
        do {
            return try ActivityWorkout.newWorkout(from: recording)
        } catch {
            throw ActivityFileError(error.description)
        }
    }

    /// A workout written as a file of the given format.
    public static func bytes(of workout: NewWorkout, format: ActivityFileFormat, name: String? = nil) throws(ActivityFileError) -> [UInt8] {
        switch format {
        case .json: return WorkoutJSON.write(workout)
        case .fit: return FITEncoder.encode(ActivityWorkout.recording(from: workout))
        case .tcx: return ActivityXMLWriter.tcx(ActivityWorkout.recording(from: workout))
        case .gpx:
            do {
                return try ActivityXMLWriter.gpx(ActivityWorkout.recording(from: workout), name: name)
            } catch {
                throw ActivityFileError(error.description)
            }
        }
    }
}
