import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// One second (or one reading) of a live recording, as `/record` sends it.
public struct RecordingSample: Sendable, Hashable {
    /// Unix time in milliseconds.
    public var at: Int64
    public var bpm: Int?
    public var rrMilliseconds: [Double]
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?

    public init(at: Int64, bpm: Int?, rrMilliseconds: [Double] = [], latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil) {
        self.at = at
        self.bpm = bpm
        self.rrMilliseconds = rrMilliseconds
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// Live recordings from `/record` (issue 23): the browser keeps the recording and sends it in
/// numbered chunks as it goes; every call is idempotent on resend, so a reload, a lost
/// network or a server restart loses nothing and stores nothing twice. Finishing turns the
/// chunks into a workout through `WorkoutService`, exactly like an upload.
public struct RecordingService: Sendable {
    public enum Limits {
        public static let samplesPerChunk = 600
        /// Chunk numbers 0 ..< chunks: 24 hours of 10-second chunks, with room to spare.
        public static let chunks = 10_000
        public static let samplesPerRecording = 100_000
        public static let rrPerSample = 16
        public static let unfinishedPerUser = 20
        /// A chunk's body (600 samples with RR and a position fit in well under this).
        public static let chunkBytes = 256 * 1024
    }

    /// What a finish gave: the workout, and whether this call made it.
    public struct Finished: Sendable {
        public let workout: WorkoutRecord
        public let created: Bool
    }

    let store: HeartworkStore
    let workouts: WorkoutService

    public init(store: HeartworkStore, workouts: WorkoutService) {
        self.store = store
        self.workouts = workouts
    }

    /// Creates the recording under the browser's id; the same call again answers the one
    /// stored (false). Another user's id is "not found".
    public func start(id: String, sport: Sport, indoor: Bool, startedAt: Date, for user: UserRecord, now: Date = Date()) async throws -> (RecordingRecord, created: Bool) {
        let id = try Self.checkID(id)
        if let existing = try await store.recordings.find(id: id, userID: user.id) {
            guard existing.sport == sport, existing.indoor == indoor, abs(existing.startedAt.timeIntervalSince(startedAt)) < 0.001 else {
                throw AppError.conflict("recording \(id) was started already with another sport, place or start time")
            }
            return (existing, false)
        }
        guard startedAt <= now.addingTimeInterval(3600), startedAt >= now.addingTimeInterval(-7 * 86_400) else {
            throw AppError.invalid("the start time is more than an hour ahead of the server's clock or more than 7 days ago", field: "startedAt")
        }
        let record = RecordingRecord(id: id, userID: user.id, sport: sport, indoor: indoor, startedAt: startedAt, createdAt: now, updatedAt: now)
        let created: Bool
        do {
            created = try await store.recordings.create(record, unfinishedLimit: Limits.unfinishedPerUser)
        } catch StoreError.limitReached {
            throw AppError.conflict("you have \(Limits.unfinishedPerUser) unfinished recordings: finish or discard one first")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        guard created else {
            // Taken by someone else (or created this instant by a resend: look again).
            if let existing = try await store.recordings.find(id: id, userID: user.id) { return (existing, false) }
            throw AppError.notFound("recording")
        }
        return (record, true)
    }

    /// Refuses (not found) an id that is another user's recording, before anything else is
    /// looked at: whatever a stranger sends about it, the answer is the same.
    public func checkNotOthers(_ id: String, for user: UserRecord) async throws {
        let id = try Self.checkID(id)
        if let owner = try await store.recordings.ownerID(of: id), owner != user.id { throw AppError.notFound("recording") }
    }

    /// The user's unfinished recordings, newest first.
    public func unfinished(for user: UserRecord) async throws -> [RecordingRecord] {
        try await store.recordings.unfinished(userID: user.id, limit: Limits.unfinishedPerUser)
    }

    /// The user's recording (finished or not).
    public func recording(_ id: String, for user: UserRecord) async throws -> RecordingRecord {
        guard let found = try await store.recordings.find(id: try Self.checkID(id), userID: user.id) else { throw AppError.notFound("recording") }
        return found
    }

    /// Stores chunk `number`: true when stored now, false when the same chunk was stored
    /// before; another chunk under a stored number is a conflict.
    public func storeChunk(_ id: String, number: Int, samples: [RecordingSample], for user: UserRecord, now: Date = Date()) async throws -> Bool {
        let recording = try await self.recording(id, for: user)
        guard (0..<Limits.chunks).contains(number) else {
            throw AppError.invalid("a chunk number is 0–\(Limits.chunks - 1)", field: "n")
        }
        let start = recording.startedAt.millisecondsSince1970
        for (index, sample) in samples.enumerated() {
            guard sample.at >= start, sample.at <= start + Int64(WorkoutLimits.seconds) * 1000 else {
                throw AppError.invalid("at is unix milliseconds within 24 hours after the start", field: "samples[\(index)].at")
            }
        }
        let body = Self.canonical(samples)
        if recording.workoutID != nil {
            // A resend after the finish: the chunks live on in the workout.
            throw AppError.conflict("this recording is finished already")
        }
        let outcome = try await store.recordings.storeChunk(
            recordingID: recording.id, RecordingChunkRecord(number: number, body: body, sampleCount: samples.count),
            sampleLimit: Limits.samplesPerRecording, now: now)
        switch outcome {
        case .stored: return true
        case .alreadyStored: return false
        case .different: throw AppError.conflict("chunk \(number) is stored already with other samples; send new samples under the next number")
        case .finished: throw AppError.conflict("this recording is finished already")
        case .closing:
            throw AppError.conflict(
                "this recording is being finished: chunk \(number) came after the finish began and was not stored; send every chunk before finishing")
        case .tooManySamples: throw AppError.invalid("at most \(Limits.samplesPerRecording) samples per recording", field: "samples")
        }
    }

    /// Makes the recording a workout (the first call: created) or answers the workout it
    /// became (every later call).
    public func finish(_ id: String, endedAt: Date?, pausedSeconds: Int, for user: UserRecord, now: Date = Date()) async throws -> Finished {
        let recording = try await self.recording(id, for: user)
        if let workoutID = recording.workoutID {
            return Finished(workout: try await workouts.workout(workoutID, viewer: user).record, created: false)
        }
        guard (0...WorkoutLimits.seconds).contains(pausedSeconds) else {
            throw AppError.invalid("pausedSeconds is 0–\(WorkoutLimits.seconds)", field: "pausedSeconds")
        }
        // Closed first: from here on no chunk is taken, so the chunks read next are all there
        // will be, and every chunk answered "stored" is in the workout (a chunk sent during the
        // finish is refused with 409 and the reason). A finish that makes no workout opens the
        // recording again.
        guard try await store.recordings.close(id: recording.id, at: now) else {
            return try await finish(id, endedAt: endedAt, pausedSeconds: pausedSeconds, for: user, now: now)
        }
        do {
            return try await finishClosed(recording, endedAt: endedAt, pausedSeconds: pausedSeconds, for: user, now: now)
        } catch {
            if (try? await store.recordings.find(id: recording.id, userID: user.id))?.workoutID == nil {
                try? await store.recordings.reopen(id: recording.id)
            }
            throw error
        }
    }

    private func finishClosed(_ recording: RecordingRecord, endedAt: Date?, pausedSeconds: Int, for user: UserRecord, now: Date) async throws -> Finished {
        let chunks = try await store.recordings.chunks(recordingID: recording.id)
        var samples = [RecordingSample]()
        for chunk in chunks {
            do {
                samples += try Self.samples(JSONValue.parse(Array(chunk.body.utf8)), path: "chunk \(chunk.number)")
            } catch {
                throw AppError(.unavailable, "chunk \(chunk.number) of this recording cannot be read back: \(error)")
            }
        }
        // Samples without heart rate (a strap that lost contact, a GPS track) still make a
        // workout without one; no sample at all makes none.
        guard !samples.isEmpty else { throw AppError.invalid("nothing was recorded: the recording has no samples", field: "samples") }
        let workout = Self.workout(recording, samples: samples)
        let record: WorkoutRecord
        do {
            record = try await workouts.record(workout, for: user, now: now)
        } catch {
            guard let appError = error as? AppError, appError.kind == .conflict else { throw error }
            // Finished at the same instant by a resend: answer the workout it made.
            if let again = try await store.recordings.find(id: recording.id, userID: user.id), let workoutID = again.workoutID {
                return Finished(workout: try await workouts.workout(workoutID, viewer: user).record, created: false)
            }
            // The workout was made but the recording not marked (the server stopped between the
            // two writes): mark it now with that workout, so a resend never sticks at 409.
            guard let location = appError.location, location.hasPrefix("/api/workouts/") else { throw error }
            let existing = String(location.dropFirst("/api/workouts/".count))
            let ended = endedAt ?? recording.startedAt.addingTimeInterval(Double(workout.heartRate.count))
            _ = try await store.recordings.finish(id: recording.id, workoutID: existing, endedAt: ended, pausedSeconds: pausedSeconds)
            return Finished(workout: try await workouts.workout(existing, viewer: user).record, created: false)
        }
        let ended = endedAt ?? recording.startedAt.addingTimeInterval(Double(workout.heartRate.count))
        _ = try await store.recordings.finish(id: recording.id, workoutID: record.id, endedAt: ended, pausedSeconds: pausedSeconds)
        return Finished(workout: record, created: true)
    }

    /// Discards an unfinished recording (a finished one is only forgotten: its workout stays).
    public func discard(_ id: String, for user: UserRecord) async throws {
        guard try await store.recordings.delete(id: try Self.checkID(id), userID: user.id) else { throw AppError.notFound("recording") }
    }

    /// The workout the samples make: one heart-rate value per second from the start (the
    /// last reading of a second wins; seconds without one, such as pauses, stay empty), RR
    /// intervals in order, a fix per sample that has one.
    static func workout(_ recording: RecordingRecord, samples: [RecordingSample]) -> NewWorkout {
        let start = recording.startedAt.millisecondsSince1970
        let ordered = samples.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        let lastSecond = ordered.last.map { Int(($0.at - start) / 1000) } ?? 0
        var heartRate = [Int?](repeating: nil, count: lastSecond + 1)
        var rr = [Double]()
        var track = [NewWorkout.TrackPoint]()
        for sample in ordered {
            let second = Int((sample.at - start) / 1000)
            if let bpm = sample.bpm { heartRate[second] = bpm }
            rr += sample.rrMilliseconds
            if let latitude = sample.latitude, let longitude = sample.longitude {
                track.append(
                    NewWorkout.TrackPoint(
                        latitudeDegrees: latitude, longitudeDegrees: longitude, elevationMeters: sample.altitude, timeSeconds: Double(sample.at - start) / 1000))
            }
        }
        return NewWorkout(
            sport: recording.sport, startTime: recording.startedAt, indoor: recording.indoor, heartRate: heartRate, rrIntervalsMilliseconds: rr,
            track: recording.indoor ? [] : track, device: "Heartwork live recording \(recording.id.prefix(8))")
    }

    /// A recording id: a UUID, lower-cased.
    static func checkID(_ id: String) throws(AppError) -> String {
        guard let uuid = UUID(uuidString: id) else { throw AppError.notFound("recording") }
        return uuid.uuidString.lowercased()
    }

    // MARK: - Chunk bodies

    /// Reads a chunk's samples: `{"samples": [{"at", "bpm", "rr", "lat", "lon", "alt"}]}`.
    public static func chunkSamples(_ body: JSONObjectReader) throws -> [RecordingSample] {
        let samples = try Self.samples(try body.required("samples"), path: body.path("samples"))
        guard samples.count <= Limits.samplesPerChunk else {
            throw JSONFieldError(.invalidValue, path: "samples", "at most \(Limits.samplesPerChunk) samples per chunk")
        }
        return samples
    }

    static func samples(_ value: JSONValue, path: String) throws(JSONFieldError) -> [RecordingSample] {
        let elements = try JSONObjectReader.array(value, path)
        guard elements.count <= Limits.samplesPerChunk else {
            throw JSONFieldError(.invalidValue, path: path, "at most \(Limits.samplesPerChunk) samples per chunk")
        }
        var samples = [RecordingSample]()
        samples.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let item = "\(path)[\(index)]"
            let reader = try JSONObjectReader(element, path: item, allowed: ["at", "bpm", "rr", "lat", "lon", "alt"])
            let at = try reader.integer("at")
            var bpm: Int?
            if let value = reader.raw("bpm"), value != .null {
                let number = try JSONObjectReader.integer(value, reader.path("bpm"))
                guard (1...250).contains(number) else {
                    throw JSONFieldError(.invalidValue, path: reader.path("bpm"), "\(number) bpm is not a heart rate (1–250, or null for no reading)")
                }
                bpm = number
            }
            let rrValues = try reader.optionalArray("rr") ?? []
            guard rrValues.count <= Limits.rrPerSample else {
                throw JSONFieldError(.invalidValue, path: reader.path("rr"), "at most \(Limits.rrPerSample) RR intervals per sample")
            }
            var rr = [Double]()
            for (rrIndex, rrValue) in rrValues.enumerated() {
                let rrPath = "\(reader.path("rr"))[\(rrIndex)]"
                let milliseconds = try JSONObjectReader.double(rrValue, rrPath)
                guard WorkoutValidation.rrMilliseconds.contains(milliseconds) else {
                    throw JSONFieldError(.invalidValue, path: rrPath, "\(milliseconds) ms is not an RR interval (20–5000 ms)")
                }
                rr.append(milliseconds)
            }
            let latitude = try reader.optionalDouble("lat")
            let longitude = try reader.optionalDouble("lon")
            let altitude = try reader.optionalDouble("alt")
            guard (latitude == nil) == (longitude == nil) else {
                throw JSONFieldError(.missing, path: reader.path(latitude == nil ? "lat" : "lon"), "give lat and lon together")
            }
            if let latitude, !(-90...90).contains(latitude) { throw JSONFieldError(.invalidValue, path: reader.path("lat"), "latitude is −90…90") }
            if let longitude, !(-180...180).contains(longitude) { throw JSONFieldError(.invalidValue, path: reader.path("lon"), "longitude is −180…180") }
            if let altitude, !(-500...9_000).contains(altitude) { throw JSONFieldError(.invalidValue, path: reader.path("alt"), "altitude is −500…9000 m") }
            samples.append(
                RecordingSample(at: Int64(at), bpm: bpm, rrMilliseconds: rr, latitude: latitude, longitude: longitude, altitude: latitude == nil ? nil : altitude))
        }
        return samples
    }

    /// The chunk's content in one spelling, so a resend compares equal whatever its spacing.
    static func canonical(_ samples: [RecordingSample]) -> String {
        var text = "["
        for (index, sample) in samples.enumerated() {
            if index > 0 { text += "," }
            text += "{\"at\":\(sample.at),\"bpm\":\(sample.bpm.map(String.init) ?? "null"),\"rr\":[\(sample.rrMilliseconds.map(number).joined(separator: ","))]"
            if let latitude = sample.latitude, let longitude = sample.longitude {
                text += ",\"lat\":\(number(latitude)),\"lon\":\(number(longitude))"
                if let altitude = sample.altitude { text += ",\"alt\":\(number(altitude))" }
            }
            text += "}"
        }
        return text + "]"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
