import Foundation

/// Reads a whole FIT activity from bytes in chunks (constant memory apart from what it keeps:
/// records, laps, sessions and RR intervals).
public struct FITActivityReader: Sendable {
    public private(set) var activity = ActivityRecording()
    var decoder = FITDecoder()
    /// Where the record message's fields sit in the last record definition seen.
    var recordPlan = RecordPlan(nil)

    /// The record message's fields (profile numbers) looked up in a definition once, not in
    /// every message: a 4-hour 1 Hz file has 14,400 records and usually one definition.
    struct RecordPlan: Sendable {
        let layout: FITDecoder.Layout?
        let bigEndian: Bool
        let timestamp, heartRate, latitude, longitude, altitude, enhancedAltitude, distance, speed, enhancedSpeed, cadence, power,
            temperature: FITDecoder.Layout.Slot

        init(_ layout: FITDecoder.Layout?) {
            self.layout = layout
            bigEndian = layout?.bigEndian ?? false
            func slot(_ field: Int) -> FITDecoder.Layout.Slot { layout?.slots[field] ?? FITDecoder.Layout.Slot() }
            timestamp = slot(253)
            heartRate = slot(3)
            latitude = slot(0)
            longitude = slot(1)
            altitude = slot(2)
            enhancedAltitude = slot(78)
            distance = slot(5)
            speed = slot(6)
            enhancedSpeed = slot(73)
            cadence = slot(4)
            power = slot(7)
            temperature = slot(13)
        }
    }

    public init() {}

    public mutating func feed(_ bytes: some Collection<UInt8>) {
        var decoder = self.decoder
        self.decoder = FITDecoder()  // moved out, so the visit below may change `self`
        decoder.feedViews(bytes) { take($0) }
        self.decoder = decoder
    }

    public mutating func finish() -> ActivityRecording {
        decoder.finish()
        activity.warnings = decoder.warnings
        return activity
    }

    /// Decodes a whole buffer, where it lies (the decoder copies nothing from contiguous bytes
    /// when it has nothing pending).
    public static func read(_ bytes: [UInt8]) -> ActivityRecording {
        var reader = FITActivityReader()
        // A record message takes at least ~8 bytes; most devices write 20–40. Reserving one per
        // 16 bytes spares the array's regrowth copies (a 4-hour file's records are 1.2 MB), and
        // costs little beyond: pages never written are never faulted in.
        reader.activity.records.reserveCapacity(min(bytes.count / 16, 1 << 20))
        reader.feed(bytes)
        return reader.finish()
    }

    /// Decodes a file in 64 KB reads.
    public static func read(path: String) throws -> ActivityRecording {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw FITWarning(offset: 0, message: "cannot open \(path)") }
        defer { try? handle.close() }
        var reader = FITActivityReader()
        while let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty { reader.feed(chunk) }
        return reader.finish()
    }

    static func date(_ value: FITValue?) -> Date? {
        guard let seconds = value?.integer, seconds >= 0x1000_0000 else { return nil }  // below: a relative time, not a date
        return FITDecoder.epoch.addingTimeInterval(Double(seconds))
    }

    static func int(_ value: FITValue?) -> Int? { value?.integer.flatMap { Int(exactly: $0) } }

    static func scaled(_ value: FITValue?, _ scale: Double, _ offset: Double = 0) -> Double? {
        value?.double.map { $0 / scale - offset }
    }

    mutating func take(_ message: FITMessageView) {
        let f = message
        switch message.global {
        case 0:
            activity.fileType = Self.int(f[0])
            activity.manufacturer = Self.int(f[1])
            activity.product = Self.int(f[2])
            activity.serialNumber = f[3].flatMap { if case .unsigned(let v) = $0 { v } else { nil } }
            activity.created = Self.date(f[4])
            if case .string(let name)? = f[8] {
                let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
                if !trimmed.isEmpty { activity.creator = String(trimmed.prefix(200)) }
            }
        case 20:
            // The hot path (one a second): the fields' places resolved once per definition.
            if recordPlan.layout !== message.layout { recordPlan = RecordPlan(message.layout) }
            let bytes = message.bytes
            let big = recordPlan.bigEndian
            let seconds =
                FITMessageView.number(recordPlan.timestamp, bytes, bigEndian: big).flatMap { $0 >= 0x1000_0000 ? $0 : nil }
                ?? message.compressedTimestamp.map(Double.init)
            guard let seconds else { return }
            var record = ActivityRecording.Record(time: FITDecoder.epoch.addingTimeInterval(seconds))
            record.heartRate = FITMessageView.int(recordPlan.heartRate, bytes, bigEndian: big)
            if let lat = FITMessageView.number(recordPlan.latitude, bytes, bigEndian: big), let lon = FITMessageView.number(recordPlan.longitude, bytes, bigEndian: big) {
                record.latitude = lat * FITDecoder.semicircle
                record.longitude = lon * FITDecoder.semicircle
            }
            record.altitude =
                (FITMessageView.number(recordPlan.enhancedAltitude, bytes, bigEndian: big)
                ?? FITMessageView.number(recordPlan.altitude, bytes, bigEndian: big)).map { $0 / 5 - 500 }
            record.distance = FITMessageView.number(recordPlan.distance, bytes, bigEndian: big).map { $0 / 100 }
            record.speed =
                (FITMessageView.number(recordPlan.enhancedSpeed, bytes, bigEndian: big)
                ?? FITMessageView.number(recordPlan.speed, bytes, bigEndian: big)).map { $0 / 1000 }
            record.cadence = FITMessageView.int(recordPlan.cadence, bytes, bigEndian: big)
            record.power = FITMessageView.int(recordPlan.power, bytes, bigEndian: big)
            record.temperature = FITMessageView.int(recordPlan.temperature, bytes, bigEndian: big)
            activity.records.append(record)
        case 19:
            activity.laps.append(
                ActivityRecording.Lap(
                    start: Self.date(f[2]), end: Self.date(f[253]), elapsedSeconds: Self.scaled(f[7], 1000), distance: Self.scaled(f[9], 100),
                    averageHeartRate: Self.int(f[15]), maximumHeartRate: Self.int(f[16])))
        case 18:
            activity.sessions.append(
                ActivityRecording.Session(
                    sport: Self.int(f[5]), subSport: Self.int(f[6]), start: Self.date(f[2]), elapsedSeconds: Self.scaled(f[7], 1000), timerSeconds: Self.scaled(f[8], 1000),
                    distance: Self.scaled(f[9], 100), calories: Self.int(f[11]), averageHeartRate: Self.int(f[16]), maximumHeartRate: Self.int(f[17])))
        case 78:
            switch f[0] {
            case .array(let values)?: activity.rrIntervalsMilliseconds.append(contentsOf: values.compactMap { $0.double.map { $0 } })
            case .unsigned(let v)?: activity.rrIntervalsMilliseconds.append(Double(v))
            default: break
            }
        case 21: activity.events += 1
        case 23: activity.devices += 1
        default: break
        }
    }
}

extension FITDecoder {
    /// FIT's epoch: 1989-12-31T00:00:00Z.
    public static let epoch = Date(timeIntervalSince1970: 631_065_600)
    /// Degrees per semicircle (FIT positions are semicircles: 2³¹ of them make 180°).
    public static let semicircle = 180.0 / 2_147_483_648.0
}
