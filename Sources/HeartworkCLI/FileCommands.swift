import ArgumentParser
import Foundation
import HeartworkCore
import HeartworkFormats

#if canImport(Glibc)
import Glibc
#endif

/// A file on disk as the file commands see it: an activity file (FIT, TCX, GPX, Heartwork
/// JSON) or an RR export (any other extension: .txt, .csv, .rr …), read by `RRFile`.
enum LocalFile {
    enum Kind: Equatable {
        case activity(ActivityFileFormat)
        case rr
    }

    /// By extension; an activity file with another name is recognised by its first bytes.
    static func kind(of path: String, bytes: [UInt8]? = nil) -> Kind {
        if let format = ActivityFileFormat(path: path) { return .activity(format) }
        if let bytes, let format = ActivityFileFormat(sniffing: bytes) { return .activity(format) }
        return .rr
    }

    /// The whole file, read straight into an array (one copy; through `Data` it was two, and
    /// ~0.3 ms of the ~14 ms `inspect` of a 422 KB FIT file).
    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0 else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw CommandFailure(isDirectory.boolValue ? "\(path) is a folder, not a file" : "\(path) cannot be read (permissions?)")
            }
            throw CommandFailure("no such file: \(path)")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw CommandFailure("\(path) cannot be read") }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw CommandFailure("\(path) is a folder, not a file") }
        var bytes = [UInt8]()
        var chunk = max(65_536, min(Int(status.st_size) + 1, 1 << 30))
        while true {
            let before = bytes.count
            var failed = false
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let got = bytes.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                var total = 0
                while total < chunk {
                    let n = Glibc.read(descriptor, base + before + total, chunk - total)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        break
                    }
                    if n == 0 { break }
                    total += n
                }
                return total
            }
            bytes.removeLast(chunk - got)
            if failed { throw CommandFailure("\(path) cannot be read: \(String(cString: strerror(errno)))") }
            if got < chunk { return bytes }
            chunk = 65_536
        }
    }

    /// Any readable file as a workout: activity files as the server reads them, RR exports
    /// with the per-second heart rate rebuilt from the intervals.
    static func workout(path: String, bytes: [UInt8], start: Date? = nil, sport: Sport? = nil) throws -> NewWorkout {
        switch kind(of: path, bytes: bytes) {
        case .activity(let format):
            do {
                var workout = try ActivityFiles.workout(bytes, format: format)
                if let sport { workout.sport = sport }
                if let start { workout.startTime = start }
                return workout
            } catch {
                throw CommandFailure("\(path): \(error.description)")
            }
        case .rr:
            let recording: RRRecording
            do {
                recording = try RRFile.read(text: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw CommandFailure("\(path): not an activity file (FIT, TCX, GPX, JSON) and not an RR export: \(error)")
            }
            do {
                return try ActivityWorkout.newWorkout(rr: recording, start: start, fileName: path, sport: sport ?? .other)
            } catch {
                throw CommandFailure("\(path): \(error.description)")
            }
        }
    }
}

/// A date option in ISO 8601 (`2026-06-04T06:58:00Z`, with fractions or an offset).
struct DateArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        if let date = try? Date(argument, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            self.date = date
        } else if let date = try? Date(argument, strategy: Date.ISO8601FormatStyle()) {
            self.date = date
        } else {
            return nil
        }
    }
}

extension Sport: ExpressibleByArgument {}

// MARK: - inspect

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what an activity file or an RR export holds, without a server.",
        discussion: """
            Reads FIT, TCX, GPX and Heartwork JSON workouts (by extension, or by content when the \
            extension says nothing) and RR exports (Kubios HRV text reports, Polar Flow, Elite \
            HRV, Polar Sensor Logger, one interval per line, CSV). Prints the device, start, \
            duration, heart rate, track, laps, RR intervals and every warning (a damaged FIT file \
            names the byte offset of the fault, an XML file its line) and whether the file makes \
            a workout. An Apple Health export.xml is read as a stream (any size) and summarised: \
            samples per kind with their days and sources, workouts, what is not kept.

            Examples:
              heartwork inspect ride.fit
              heartwork inspect run.tcx --format json
              heartwork inspect "2017-06-29 13-11-53.txt"
              heartwork inspect apple_health_export/export.xml
            """
    )

    @Argument(help: "The file.")
    var file: String

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        if !file.lowercased().hasSuffix(".fit"), HealthExportSummary.looksLikeExport(file) {
            let summary = try HealthExportSummary.make(path: file)
            switch format {
            case .json: print(try JSONOutput.render(summary))
            case .table: print(summary.table)
            }
            return
        }
        let summary = try FileSummary.make(path: file)
        switch format {
        case .json: print(try JSONOutput.render(summary))
        case .table: print(summary.table)
        }
    }
}

/// What `inspect` prints.
struct FileSummary: Encodable {
    struct HeartRate: Encodable {
        var minimum: Int
        var average: Double
        var maximum: Int

        /// Nil without readings.
        init?(_ rates: [Int]) {
            guard let low = rates.min(), let high = rates.max() else { return nil }
            minimum = low
            average = (Double(rates.reduce(0, +)) / Double(rates.count)).rounded(toPlaces: 1)
            maximum = high
        }
    }

    var file: String
    var format: String
    var bytes: Int
    var device: String?
    var start: String?
    var durationSeconds: Double?
    var sport: String?
    var records: Int?
    var heartRateRecords: Int?
    var heartRate: HeartRate?
    var trackPoints: Int?
    var distanceMeters: Double?
    var kilocalories: Double?
    var laps: Int?
    var sessions: Int?
    var rrIntervals: Int
    var rrUnit: String?
    var rrColumn: String?
    var meanRRMilliseconds: Double?
    var warnings: [String]
    /// Whether the file makes a workout, and why not.
    var workout: Bool
    var problem: String?

    static func make(path: String) throws -> FileSummary {
        let bytes = try LocalFile.read(path)
        var summary = FileSummary(file: path, format: "", bytes: bytes.count, rrIntervals: 0, warnings: [], workout: false)
        switch LocalFile.kind(of: path, bytes: bytes) {
        case .activity(.json):
            summary.format = "json"
            do {
                let workout = try WorkoutJSON.read(bytes)
                summary.fill(from: workout)
                summary.workout = true
            } catch {
                summary.problem = error.description
            }
        case .activity(let format):
            summary.format = format.rawValue
            let recording = ActivityFiles.recording(bytes, format: format) ?? ActivityRecording()
            summary.fill(from: recording)
            do {
                let workout = try ActivityFiles.workout(recording, bytes: bytes, format: format)
                summary.workout = true
                summary.sport = workout.sport.rawValue
                summary.kilocalories = workout.kilocalories
            } catch {
                summary.problem = "\(error)"
            }
        case .rr:
            summary.format = "rr"
            let recording: RRRecording
            do {
                recording = try RRFile.read(text: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw CommandFailure("\(path): not an activity file (FIT, TCX, GPX, JSON) and not an RR export: \(error)")
            }
            summary.rrIntervals = recording.intervalsMilliseconds.count
            summary.rrUnit = recording.unit.rawValue
            summary.rrColumn = recording.column
            let total = recording.intervalsMilliseconds.reduce(0, +)
            summary.durationSeconds = (total / 1000).rounded(toPlaces: 3)
            summary.meanRRMilliseconds = (total / Double(recording.intervalsMilliseconds.count)).rounded(toPlaces: 1)
            do {
                let workout = try ActivityWorkout.newWorkout(rr: recording, fileName: path)
                summary.start = ActivityXMLWriter.timestamp(workout.startTime)
                summary.workout = true
            } catch {
                summary.problem = error.description
            }
        }
        return summary
    }

    mutating func fill(from recording: ActivityRecording) {
        device = recording.device
        // One pass over the records (a 4-hour file has 14,400).
        var earliest: Date?
        var latest: Date?
        var rates = [Int]()
        rates.reserveCapacity(recording.records.count)
        var points = 0
        for record in recording.records {
            if earliest.map({ record.time < $0 }) ?? true { earliest = record.time }
            if latest.map({ record.time > $0 }) ?? true { latest = record.time }
            if let bpm = record.heartRate { rates.append(bpm) }
            if record.latitude != nil && record.longitude != nil { points += 1 }
        }
        let first = recording.sessions.first?.start ?? earliest
        start = first.map(ActivityXMLWriter.timestamp)
        if let first, let last = latest {
            durationSeconds = max(recording.sessions.first?.elapsedSeconds ?? 0, last.timeIntervalSince(first)).rounded(toPlaces: 3)
        } else {
            durationSeconds = recording.sessions.first?.elapsedSeconds
        }
        records = recording.records.count
        heartRateRecords = rates.count
        heartRate = HeartRate(rates)
        trackPoints = points
        distanceMeters = (recording.sessions.first?.distance ?? recording.records.last(where: { $0.distance != nil })?.distance)?.rounded(toPlaces: 1)
        laps = recording.laps.count
        sessions = recording.sessions.count
        rrIntervals = recording.rrIntervalsMilliseconds.count
        if !recording.rrIntervalsMilliseconds.isEmpty {
            meanRRMilliseconds = (recording.rrIntervalsMilliseconds.reduce(0, +) / Double(rrIntervals)).rounded(toPlaces: 1)
        }
        warnings = recording.warnings.map(\.description)
    }

    mutating func fill(from workout: NewWorkout) {
        device = workout.device
        start = ActivityXMLWriter.timestamp(workout.startTime)
        durationSeconds = Double(workout.heartRate.count)
        sport = workout.sport.rawValue
        let rates = workout.heartRate.compactMap { $0 }
        heartRateRecords = rates.count
        heartRate = HeartRate(rates)
        trackPoints = workout.track.count
        distanceMeters = workout.distanceMeters
        kilocalories = workout.kilocalories
        rrIntervals = workout.rrIntervalsMilliseconds.count
        if rrIntervals > 0 {
            meanRRMilliseconds = (workout.rrIntervalsMilliseconds.reduce(0, +) / Double(rrIntervals)).rounded(toPlaces: 1)
        }
    }

    var table: String {
        var rows: [(String, String)] = [("File", file), ("Format", format.uppercased()), ("Size", "\(bytes) bytes")]
        if let device { rows.append(("Device", device)) }
        if let start { rows.append(("Start", start)) }
        if let durationSeconds { rows.append(("Duration", Self.clock(durationSeconds))) }
        if let sport { rows.append(("Sport", sport)) }
        if let records { rows.append(("Records", "\(records)")) }
        if let heartRateRecords, let heartRate {
            rows.append(("Heart rate", "\(heartRateRecords) readings, \(heartRate.minimum)–\(heartRate.maximum) bpm, average \(heartRate.average.formatted(places: 1))"))
        } else if heartRateRecords != nil {
            rows.append(("Heart rate", "none"))
        }
        if let trackPoints { rows.append(("Track", trackPoints == 0 ? "none" : "\(trackPoints) points")) }
        if let distanceMeters { rows.append(("Distance", "\((distanceMeters / 1000).formatted(places: 2)) km")) }
        if let kilocalories { rows.append(("Energy", "\(Int(kilocalories.rounded())) kcal")) }
        if let laps, laps > 0 { rows.append(("Laps", "\(laps)")) }
        var rr = rrIntervals == 0 ? "none" : "\(rrIntervals) intervals"
        if let meanRRMilliseconds { rr += ", mean \(meanRRMilliseconds.formatted(places: 1)) ms (\((60_000 / meanRRMilliseconds).formatted(places: 1)) bpm)" }
        if let rrUnit { rr += ", written in \(rrUnit == "s" ? "seconds" : "milliseconds")" }
        if let rrColumn { rr += ", column \"\(rrColumn)\"" }
        rows.append(("RR", rr))
        rows.append(("Workout", workout ? "yes" : "no: \(problem ?? "")"))
        return LabelledRows.render(rows, warnings: warnings)
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
    }
}

// MARK: - convert

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert between FIT, TCX, GPX, Heartwork JSON and RR text, by extension.",
        discussion: """
            Reads IN as `inspect` does and writes OUT in the format its extension names: .fit, \
            .tcx, .gpx, .json (a workout), or .txt/.rr (the RR intervals, one per line in ms, as \
            Kubios HRV and `heartwork hrv` read them). What goes across is what a Heartwork \
            workout holds: the per-second heart rate, the GPS track, the RR intervals, sport, \
            start, distance and energy. An RR export needs --start when it does not carry its \
            own date (Elite HRV files are named after theirs). GPX needs a track.

            Examples:
              heartwork convert ride.fit ride.gpx
              heartwork convert morning.txt morning.fit --start 2026-06-04T06:58:00Z
              heartwork convert run.tcx run-rr.txt
            """
    )

    @Argument(help: "The file to read.")
    var input: String

    @Argument(help: "The file to write; its extension picks the format.")
    var output: String

    @Option(help: "The start, for RR exports that do not carry it (ISO 8601).")
    var start: DateArgument?

    @Option(help: "The sport to record: running, cycling, strength or other.")
    var sport: Sport?

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    func validate() throws {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        guard ActivityFileFormat(rawValue: ext) != nil || ext == "txt" || ext == "rr" else {
            throw ValidationError("OUT must end in .fit, .tcx, .gpx, .json, .txt or .rr (it ends in '\(ext.isEmpty ? "nothing" : "." + ext)')")
        }
    }

    func run() throws {
        let bytes = try LocalFile.read(input)
        let workout = try LocalFile.workout(path: input, bytes: bytes, start: start?.date, sport: sport)
        let out: [UInt8]
        if let format = ActivityFileFormat(path: output) {
            do {
                out = try ActivityFiles.bytes(of: workout, format: format)
            } catch {
                throw CommandFailure(error.description)
            }
        } else {
            guard !workout.rrIntervalsMilliseconds.isEmpty else {
                throw CommandFailure("\(input) has no RR intervals to write (only a file recorded with RR, such as a FIT file with hrv messages, has them)")
            }
            out =
                Array(
                    workout.rrIntervalsMilliseconds.map { value in
                        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
                    }.joined(separator: "\n").utf8) + [0x0A]
        }
        if !force && FileManager.default.fileExists(atPath: output) {
            throw CommandFailure("\(output) exists; give --force to replace it")
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(out)) else {
            throw CommandFailure("\(output) cannot be written")
        }
        StandardError.write(
            "wrote \(output) (\(out.count) bytes): \(workout.heartRate.count) s of heart rate, \(workout.track.count) track points, \(workout.rrIntervalsMilliseconds.count) RR intervals"
        )
    }
}
