import Foundation
import HeartworkCore

/// One value of a row read from an SQLite file, as the file holds it (SQLite's five storage
/// classes; a blob only by its length, its bytes are never needed).
public enum DatabaseValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Int)
    case null

    /// The value as a whole number: an integer, or a real that is one. Text is not a number
    /// here (Gadgetbridge never writes numbers as text; a file that does is not understood).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): value.isFinite && value.rounded() == value && abs(value) < 9.0e18 ? Int64(value) : nil
        case .text, .blob, .null: nil
        }
    }

    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// A device as Gadgetbridge's `DEVICE` table keeps it (GBDaoGenerator.addDevice: `_id`, NAME,
/// MANUFACTURER, IDENTIFIER (the MAC address), TYPE (the legacy `DeviceType` key), TYPE_NAME
/// (the `DeviceType` enum's name, newer schemas only)).
public struct GadgetbridgeDevice: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var manufacturer: String
    public var identifier: String
    public var type: Int64?
    public var typeName: String?

    public init(id: Int64, name: String, manufacturer: String = "", identifier: String = "", type: Int64? = nil, typeName: String? = nil) {
        self.id = id
        self.name = name
        self.manufacturer = manufacturer
        self.identifier = identifier
        self.type = type
        self.typeName = typeName
    }

    /// The first Mi Band (DeviceType.MIBAND, key 10): its raw kinds are MiBandSampleProvider's,
    /// not HuamiConst's.
    public var isMiBand1: Bool { typeName.map { $0 == "MIBAND" } ?? (type == 10) }

    /// The name samples are stored under: the user's alias is not kept, the device's name is.
    public var sourceName: String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "Gadgetbridge device \(id)" : String(trimmed.prefix(100))
    }
}

/// What Heartwork knows of Gadgetbridge's database: the sample tables of the common device
/// families and what their columns mean, taken from Gadgetbridge's own source
/// (https://codeberg.org/Freeyourgadget/Gadgetbridge):
///
/// - `GBDaoGenerator/src/.../daogen/GBDaoGenerator.java` (schema 86): greenDAO entities become
///   tables named in upper snake case (`MiBandActivitySample` → `MI_BAND_ACTIVITY_SAMPLE`), each
///   property a column (`rawIntensity` → `RAW_INTENSITY`). Activity samples
///   (`addCommonActivitySampleProperties`) have TIMESTAMP (an int: Unix seconds, UTC),
///   DEVICE_ID, USER_ID, primary key (TIMESTAMP, DEVICE_ID), `WITHOUT ROWID`; one row a minute.
///   Time samples (`addCommonTimeSampleProperties`) have a long TIMESTAMP in milliseconds.
/// - `devices/miband/MiBandSampleProvider.java` (Mi Band 1): RAW_KIND 4 light sleep, 5 deep
///   sleep, 3 not worn, 6 charging.
/// - `devices/huami/HuamiConst.java` and `devices/miband/MiBand2SampleProvider.java` (Mi Band 2
///   and later, Amazfit, Huami, in the same `MI_BAND_ACTIVITY_SAMPLE` table): RAW_KIND is taken
///   `& 0xf` (unless -1); 0 (no change) and 10 (ignore) carry the device's last kind on;
///   9 light sleep, 11 deep sleep, 3 not worn, 6 charging.
/// - `devices/huami/HuamiExtendedSampleProvider.java` (`HUAMI_EXTENDED_ACTIVITY_SAMPLE`, newer
///   Huami/Zepp OS devices): RAW_KIND 120 is sleep; REM_SLEEP & 127 above 55 is REM, else
///   DEEP_SLEEP & 127 above 42 is deep, else light; 115 not worn, 118 charging.
/// - `devices/pebble/PebbleHealthSampleProvider.java`: `PEBBLE_HEALTH_ACTIVITY_SAMPLE` holds
///   steps and heart rate a minute; sleep is in `PEBBLE_HEALTH_ACTIVITY_OVERLAY` as intervals
///   (TIMESTAMP_FROM..TIMESTAMP_TO, seconds) of RAW_KIND 1 light sleep, 2 deep sleep, 3 light
///   nap, 4 deep nap (5 walk, 6 run are not sleep); deep intervals lie inside light ones.
/// - `model/HeartRateUtils.java`: a heart rate is valid from 10 to 250 (the chart defaults);
///   the bands write 255, 0 or -1 when they have none.
/// - `XIAOMI_ACTIVITY_SAMPLE`, `GARMIN_ACTIVITY_SAMPLE` share the activity sample's STEPS and
///   HEART_RATE (their sleep lives in other tables, not read); `HUAMI_HEART_RATE_MANUAL_SAMPLE`
///   and `HUAMI_HEART_RATE_RESTING_SAMPLE` are time samples (milliseconds) with HEART_RATE.
///
/// Gadgetbridge stores no UTC offset with a minute sample: the caller gives the time zone.
public enum GadgetbridgeSchema {
    /// The first 16 bytes of every SQLite 3 database file.
    public static let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

    public static func looksLikeSQLite(_ head: some Collection<UInt8>) -> Bool {
        head.count >= 16 && head.prefix(16).elementsEqual(sqliteHeader)
    }

    public enum Layout: Sendable, Hashable {
        /// MI_BAND_ACTIVITY_SAMPLE: steps, heart rate, sleep by the device family's raw kinds.
        case miBand
        /// HUAMI_EXTENDED_ACTIVITY_SAMPLE: as Huami, with the SLEEP/DEEP_SLEEP/REM_SLEEP levels.
        case huamiExtended
        /// An activity sample with STEPS and HEART_RATE only (no sleep understood).
        case stepsAndHeartRate
        /// PEBBLE_HEALTH_ACTIVITY_OVERLAY: sleep intervals.
        case pebbleOverlay
        /// A time sample (milliseconds) with HEART_RATE, stored as this kind.
        case heartRateTimeSample(HealthSample.Kind)
    }

    public struct Table: Sendable, Hashable {
        public let name: String
        public let layout: Layout
        /// The columns read, in this order (the key first).
        public let columns: [String]
        /// The primary key, the order rows are read in (pages after the last key read).
        public let key: [String]
        /// TIMESTAMP is in milliseconds (time samples), not seconds.
        public let milliseconds: Bool
    }

    static let activityKey = ["TIMESTAMP", "DEVICE_ID"]

    /// The tables read.
    public static let tables: [Table] = [
        Table(name: "MI_BAND_ACTIVITY_SAMPLE", layout: .miBand, columns: activityKey + ["STEPS", "HEART_RATE", "RAW_KIND"], key: activityKey, milliseconds: false),
        Table(
            name: "HUAMI_EXTENDED_ACTIVITY_SAMPLE", layout: .huamiExtended,
            columns: activityKey + ["STEPS", "HEART_RATE", "RAW_KIND", "SLEEP", "DEEP_SLEEP", "REM_SLEEP"], key: activityKey, milliseconds: false),
        Table(name: "PEBBLE_HEALTH_ACTIVITY_SAMPLE", layout: .stepsAndHeartRate, columns: activityKey + ["STEPS", "HEART_RATE"], key: activityKey, milliseconds: false),
        Table(
            name: "PEBBLE_HEALTH_ACTIVITY_OVERLAY", layout: .pebbleOverlay, columns: ["TIMESTAMP_FROM", "TIMESTAMP_TO", "RAW_KIND", "DEVICE_ID"],
            key: ["TIMESTAMP_FROM", "TIMESTAMP_TO", "RAW_KIND", "DEVICE_ID"], milliseconds: false),
        Table(name: "XIAOMI_ACTIVITY_SAMPLE", layout: .stepsAndHeartRate, columns: activityKey + ["STEPS", "HEART_RATE"], key: activityKey, milliseconds: false),
        Table(name: "GARMIN_ACTIVITY_SAMPLE", layout: .stepsAndHeartRate, columns: activityKey + ["STEPS", "HEART_RATE"], key: activityKey, milliseconds: false),
        Table(
            name: "HUAMI_HEART_RATE_MANUAL_SAMPLE", layout: .heartRateTimeSample(.heartRate), columns: activityKey + ["HEART_RATE"], key: activityKey,
            milliseconds: true),
        Table(
            name: "HUAMI_HEART_RATE_RESTING_SAMPLE", layout: .heartRateTimeSample(.restingHeartRate), columns: activityKey + ["HEART_RATE"],
            key: activityKey, milliseconds: true),
    ]

    public static func table(named name: String) -> Table? { tables.first { $0.name == name } }

    /// Whether a file with these tables is a Gadgetbridge database: it has at least one of the
    /// sample tables read here.
    public static func isGadgetbridge(tables names: some Sequence<String>) -> Bool {
        names.contains { table(named: $0) != nil }
    }

    /// Tables with health data that are not read (named in the import's answer with their rows):
    /// every other sample or overlay table, and the workout summaries.
    public static func holdsUnreadData(_ name: String) -> Bool {
        table(named: name) == nil && (name.hasSuffix("_SAMPLE") || name.hasSuffix("_OVERLAY") || name == "BASE_ACTIVITY_SUMMARY")
    }

    /// Heart rates Gadgetbridge shows (HeartRateUtils: 10...250); 255, 0 and -1 mean none.
    public static let validHeartRate: ClosedRange<Int64> = 10...250
    /// Steps in one minute's sample above this are not a person walking.
    public static let maximumStepsPerMinute: Int64 = 1000
    /// Timestamps outside 2000-01-01...2100-01-01 are not understood.
    public static let plausibleSeconds: ClosedRange<Int64> = 946_684_800...4_102_444_800
}

/// Turns Gadgetbridge sample rows into `HealthSample`s, table by table, in key order (time
/// first), with bounded state: per device the last Huami kind and one open sleep run (minutes
/// of the same stage merge into one sample). What it cannot use is counted by name in
/// `notUnderstood` (one name for each table and kind of fault, never one for each value: at
/// most `maximumNotUnderstood` names, the rest counted under `otherNotUnderstood`); what it
/// used, by device and kind, in `read`.
public struct GadgetbridgeReader: Sendable {
    /// At most this many devices' rows are read (a hostile file may name millions).
    public static let maximumDevices = 1000
    /// At most this many names in `notUnderstood` (a hostile file may have thousands of
    /// tables); what comes after them is counted under `otherNotUnderstood`.
    public static let maximumNotUnderstood = 50
    public static let otherNotUnderstood = "other"

    private let devices: [Int64: GadgetbridgeDevice]
    private let timeZone: TimeZone
    public private(set) var notUnderstood: [String: Int] = [:]
    public private(set) var read: [String: Int] = [:]

    private struct SleepRun {
        var stage: HealthSample.SleepStage
        var start: Int64
        var end: Int64
    }

    /// A device's sleep session: runs no more than `sleepSessionGapSeconds` apart. Its runs
    /// are held until it holds `minimumSleepSessionSeconds` asleep, then written as they come.
    private struct SleepSession {
        var held: [SleepRun]
        var end: Int64
        var asleep: Int64
        var kept: Bool
    }

    /// Sleep runs further apart than this are two sessions: Gadgetbridge's own
    /// `SleepAnalysis.MAX_WAKE_PHASE_LENGTH` (60 minutes in its current
    /// `SleepSessionSegmenter`; 2 hours in older versions).
    public static let sleepSessionGapSeconds: Int64 = 3600
    /// A session with less sleep than this is not a night: a band still on a desk or a wrist
    /// at rest writes stray sleep minutes (a real Mi Band 5 database: "nights" of 0.1 h, issue
    /// 41). Gadgetbridge's charts drop sessions of 5 minutes or less
    /// (`SleepAnalysis.MIN_SESSION_LENGTH`); Heartwork's days have one night each and no
    /// naps, so an hour: what is left out is counted, never dropped without a word.
    public static let minimumSleepSessionSeconds: Int64 = 3600
    public static let shortSleepNote = "sleep: sessions under an hour (stray minutes or naps, not a night)"

    private var lastHuamiKind: [Int64: Int64] = [:]
    private var runs: [Int64: SleepRun] = [:]
    private var sessions: [Int64: SleepSession] = [:]
    /// Pebble: the end of the last deep interval of a device (a light one starting before it
    /// starts there).
    private var coveredUntil: [Int64: Int64] = [:]

    private let minimumSleepSession: Int64

    /// `minimumSleepSessionSeconds`: the product's rule unless a test of the stage rules
    /// reads minutes alone.
    public init(devices: [GadgetbridgeDevice], timeZone: TimeZone, minimumSleepSessionSeconds: Int64 = Self.minimumSleepSessionSeconds) {
        var byID = [Int64: GadgetbridgeDevice]()
        for device in devices.prefix(Self.maximumDevices) { byID[device.id] = device }
        self.devices = byID
        self.timeZone = timeZone
        self.minimumSleepSession = minimumSleepSessionSeconds
    }

    /// Counts `count` of something not understood: under its own name while fewer than
    /// `maximumNotUnderstood` names are kept (or the name is kept already), else under
    /// `otherNotUnderstood`.
    public mutating func note(_ what: String, _ count: Int = 1) {
        guard count > 0 else { return }
        let named = notUnderstood.count - (notUnderstood[Self.otherNotUnderstood] == nil ? 0 : 1)
        let key = notUnderstood[what] != nil || named < Self.maximumNotUnderstood ? what : Self.otherNotUnderstood
        notUnderstood[key, default: 0] += count
    }

    /// Reads one row of `table` (its `columns`, in order).
    public mutating func read(_ row: [DatabaseValue], of table: GadgetbridgeSchema.Table, into samples: inout [HealthSample]) {
        guard row.count == table.columns.count else { return note("\(table.name): rows not understood") }
        if case .pebbleOverlay = table.layout { return readOverlay(row, table: table, into: &samples) }
        guard let rawTime = row[0].integer, let deviceID = row[1].integer else { return note("\(table.name): rows not understood") }
        guard let device = devices[deviceID] else { return note("\(table.name): rows of devices not in DEVICE") }
        let seconds = table.milliseconds ? rawTime / 1000 : rawTime
        guard GadgetbridgeSchema.plausibleSeconds.contains(seconds) else { return note("\(table.name): timestamps out of range") }
        func value(_ column: String) -> DatabaseValue {
            guard let index = table.columns.firstIndex(of: column) else { return .null }
            return row[index]
        }
        switch table.layout {
        case .heartRateTimeSample(let kind):
            heartRate(value("HEART_RATE"), kind: kind, at: seconds, device: device, table: table, into: &samples)
            return
        case .stepsAndHeartRate, .miBand, .huamiExtended, .pebbleOverlay: break
        }
        heartRate(value("HEART_RATE"), kind: .heartRate, at: seconds, device: device, table: table, into: &samples)
        switch value("STEPS") {
        case .null: break
        case let steps:
            if let count = steps.integer, count >= 0, count <= GadgetbridgeSchema.maximumStepsPerMinute {
                if count > 0 {
                    samples.append(sample(.steps, from: seconds, to: seconds + 60, value: Double(count), device: device))
                    read["\(device.sourceName): steps", default: 0] += 1
                }
            } else {
                note("\(table.name): steps not understood")
            }
        }
        let stage: HealthSample.SleepStage?
        switch table.layout {
        case .miBand: stage = miBandStage(value("RAW_KIND"), device: device)
        case .huamiExtended: stage = huamiExtendedStage(kind: value("RAW_KIND"), deep: value("DEEP_SLEEP"), rem: value("REM_SLEEP"))
        default: stage = nil
        }
        sleepMinute(stage, at: seconds, device: device, into: &samples)
    }

    /// Ends a table: the open sleep runs become samples.
    public mutating func finishTable(into samples: inout [HealthSample]) {
        for (id, run) in runs.sorted(by: { $0.key < $1.key }) {
            if let device = devices[id] { emit(run, device: device, into: &samples) }
        }
        for (id, session) in sessions.sorted(by: { $0.key < $1.key }) {
            if let device = devices[id] { close(session, device: device) }
        }
        sessions.removeAll()
        runs.removeAll()
        lastHuamiKind.removeAll()
        coveredUntil.removeAll()
    }

    // MARK: Columns

    private mutating func heartRate(
        _ value: DatabaseValue, kind: HealthSample.Kind, at seconds: Int64, device: GadgetbridgeDevice, table: GadgetbridgeSchema.Table,
        into samples: inout [HealthSample]
    ) {
        guard let bpm = value.integer else {
            if value != .null { note("\(table.name): heart rates not understood") }
            return
        }
        guard GadgetbridgeSchema.validHeartRate.contains(bpm) else { return }  // 255, 0, -1: none measured.
        samples.append(sample(kind, from: seconds, to: seconds, value: Double(bpm), device: device))
        read["\(device.sourceName): \(kind == .restingHeartRate ? "resting heart rate" : "heart rate")", default: 0] += 1
    }

    /// MI_BAND_ACTIVITY_SAMPLE's RAW_KIND as the device's family reads it.
    private mutating func miBandStage(_ value: DatabaseValue, device: GadgetbridgeDevice) -> HealthSample.SleepStage? {
        guard var kind = value.integer else { return nil }
        if device.isMiBand1 {
            // MiBandSampleProvider: TYPE_LIGHT_SLEEP 4, TYPE_DEEP_SLEEP 5.
            switch kind {
            case 4: return .core
            case 5: return .deep
            default: return nil
            }
        }
        // MiBand2SampleProvider.postprocess and HuamiConst.toActivityKind.
        if kind != -1 { kind &= 0xf }
        if kind == 0 || kind == 10 {
            if let last = lastHuamiKind[device.id], last != -1 { kind = last }
        } else {
            lastHuamiKind[device.id] = kind
        }
        switch kind {
        case 9: return .core
        case 11: return .deep
        default: return nil
        }
    }

    /// HuamiExtendedSampleProvider.postProcess and normalizeType.
    private func huamiExtendedStage(kind: DatabaseValue, deep: DatabaseValue, rem: DatabaseValue) -> HealthSample.SleepStage? {
        guard kind.integer == 120 else { return nil }
        if let rem = rem.integer, rem & 127 > 55 { return .rem }
        if let deep = deep.integer, deep & 127 > 42 { return .deep }
        return .core
    }

    // MARK: Sleep

    private mutating func sleepMinute(_ stage: HealthSample.SleepStage?, at seconds: Int64, device: GadgetbridgeDevice, into samples: inout [HealthSample]) {
        if let run = runs[device.id] {
            if let stage, run.stage == stage, seconds >= run.end, seconds - run.end < 60 {
                runs[device.id]?.end = seconds + 60
                return
            }
            emit(run, device: device, into: &samples)
            runs[device.id] = nil
        }
        if let stage { runs[device.id] = SleepRun(stage: stage, start: seconds, end: seconds + 60) }
    }

    /// A finished run joins its device's session: written when the session holds an hour
    /// asleep (`minimumSleepSessionSeconds`), held until then.
    private mutating func emit(_ run: SleepRun, device: GadgetbridgeDevice, into samples: inout [HealthSample]) {
        guard run.end > run.start else { return }
        let seconds = run.end - run.start
        var session: SleepSession
        if let open = sessions[device.id], run.start - open.end <= Self.sleepSessionGapSeconds {
            session = open
            session.end = max(open.end, run.end)
            session.asleep = open.asleep.addingReportingOverflow(seconds).partialValue
            session.held.append(run)
        } else {
            if let open = sessions[device.id] { close(open, device: device) }
            session = SleepSession(held: [run], end: run.end, asleep: seconds, kept: false)
        }
        if session.kept || session.asleep >= minimumSleepSession {
            for held in session.held { write(held, device: device, into: &samples) }
            session.held.removeAll()
            session.kept = true
        }
        sessions[device.id] = session
    }

    private mutating func close(_ session: SleepSession, device: GadgetbridgeDevice) {
        if !session.kept { note("\(device.sourceName): \(Self.shortSleepNote)") }
    }

    private mutating func write(_ run: SleepRun, device: GadgetbridgeDevice, into samples: inout [HealthSample]) {
        samples.append(sample(.sleep, from: run.start, to: run.end, value: Double(run.stage.rawValue), device: device))
        read["\(device.sourceName): sleep", default: 0] += 1
    }

    /// PEBBLE_HEALTH_ACTIVITY_OVERLAY: light intervals with deep ones inside; the deep minutes
    /// are cut out of the light interval around them.
    private mutating func readOverlay(_ row: [DatabaseValue], table: GadgetbridgeSchema.Table, into samples: inout [HealthSample]) {
        guard let from = row[0].integer, let to = row[1].integer, let kind = row[2].integer, let deviceID = row[3].integer else {
            return note("\(table.name): rows not understood")
        }
        guard let device = devices[deviceID] else { return note("\(table.name): rows of devices not in DEVICE") }
        guard GadgetbridgeSchema.plausibleSeconds.contains(from), GadgetbridgeSchema.plausibleSeconds.contains(to), to > from,
            to - from <= 86_400
        else { return note("\(table.name): intervals out of range") }
        let stage: HealthSample.SleepStage
        switch kind {
        case 1, 3: stage = .core
        case 2, 4: stage = .deep
        default: return  // walks and runs: not sleep.
        }
        if stage == .deep {
            if let open = runs[device.id], open.stage == .core, from < open.end {
                // The light interval up to the deep one; what follows it stays open.
                emit(SleepRun(stage: .core, start: open.start, end: max(open.start, from)), device: device, into: &samples)
                runs[device.id] = to < open.end ? SleepRun(stage: .core, start: to, end: open.end) : nil
            }
            emit(SleepRun(stage: .deep, start: from, end: to), device: device, into: &samples)
            coveredUntil[device.id] = max(coveredUntil[device.id] ?? to, to)
            return
        }
        if let open = runs[device.id] { emit(open, device: device, into: &samples) }
        let start = max(from, coveredUntil[device.id] ?? from)
        runs[device.id] = start < to ? SleepRun(stage: .core, start: start, end: to) : nil
    }

    private func sample(_ kind: HealthSample.Kind, from start: Int64, to end: Int64, value: Double, device: GadgetbridgeDevice) -> HealthSample {
        let startDate = Date(timeIntervalSince1970: Double(start))
        return HealthSample(
            kind: kind, start: startDate, end: Date(timeIntervalSince1970: Double(end)), utcOffsetSeconds: timeZone.secondsFromGMT(for: startDate),
            value: value, source: device.sourceName, device: device.sourceName)
    }
}
