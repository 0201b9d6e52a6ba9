import Foundation

/// Writes a FIT activity file (protocol 2.0, profile 21.x, little endian, 14-byte header with
/// its CRC, file CRC): file_id, the timer start event, one record per sample, laps, a
/// session, the activity, and hrv messages with the RR intervals (at most 5 a message, as
/// devices write them). Values outside a field's range are written as its invalid value, never
/// wrapped. Readable by Garmin's SDK and by fitdecode (CI checks the latter).
public enum FITEncoder {
    public static func encode(_ activity: ActivityRecording) -> [UInt8] {
        var body = Body()
        let start = activity.records.first?.time ?? activity.created ?? activity.sessions.first?.start ?? FITDecoder.epoch
        let end = activity.records.last?.time ?? start

        // file_id: type, manufacturer, product, serial_number, time_created, and product_name (the
        // creator's name, at most 63 bytes and a NUL) when there is one.
        let name = activity.creator.map { Array($0.utf8.prefix(63)) } ?? []
        var fileID: [(number: UInt8, size: UInt8, type: UInt8)] = [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)]
        if !name.isEmpty { fileID.append((8, UInt8(name.count + 1), 0x07)) }
        body.define(local: 0, global: 0, fileID)
        body.data(
            local: 0,
            [
                .u8(activity.fileType ?? 4), .u16(activity.manufacturer ?? 255), .u16(activity.product ?? 0),
                .u32z(activity.serialNumber ?? 0), .time(activity.created ?? start),
            ] + (name.isEmpty ? [] : [.string(name)]))
        // event: timestamp, event (0 timer), event_type (0 start, 4 stop all)
        body.define(local: 1, global: 21, [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
        body.data(local: 1, [.time(start), .u8(0), .u8(0)])

        body.define(
            local: 2, global: 20,
            [
                (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86), (3, 1, 0x02), (5, 4, 0x86),
                (73, 4, 0x86), (4, 1, 0x02), (7, 2, 0x84), (13, 1, 0x01),
            ])
        for r in activity.records {
            body.data(
                local: 2,
                [
                    .time(r.time), .s32(r.latitude.map { $0 / FITDecoder.semicircle }), .s32(r.longitude.map { $0 / FITDecoder.semicircle }),
                    .u32(r.altitude.map { ($0 + 500) * 5 }), .u8(r.heartRate), .u32(r.distance.map { $0 * 100 }), .u32(r.speed.map { $0 * 1000 }),
                    .u8(r.cadence), .u16(r.power), .s8(r.temperature),
                ])
        }
        body.data(local: 1, [.time(end), .u8(0), .u8(4)])

        // hrv: time (uint16[5], ms)
        if !activity.rrIntervalsMilliseconds.isEmpty {
            body.define(local: 3, global: 78, [(0, 10, 0x84)])
            var index = 0
            let rr = activity.rrIntervalsMilliseconds
            while index < rr.count {
                let chunk = rr[index..<min(index + 5, rr.count)]
                body.dataRaw(local: 3, Field.u16Array(Array(chunk), count: 5))
                index += 5
            }
        }

        // lap: timestamp, start_time, total_elapsed_time, total_timer_time, total_distance, avg_hr, max_hr, event, event_type
        let laps =
            activity.laps.isEmpty
            ? [
                ActivityRecording.Lap(
                    start: start, end: end, elapsedSeconds: end.timeIntervalSince(start),
                    distance: activity.records.last?.distance)
            ] : activity.laps
        body.define(
            local: 4, global: 19,
            [
                (253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (15, 1, 0x02), (16, 1, 0x02),
                (0, 1, 0x00), (1, 1, 0x00),
            ])
        for lap in laps {
            body.data(
                local: 4,
                [
                    .time(lap.end ?? end), .time(lap.start ?? start), .u32(lap.elapsedSeconds.map { $0 * 1000 }),
                    .u32(lap.elapsedSeconds.map { $0 * 1000 }), .u32(lap.distance.map { $0 * 100 }), .u8(lap.averageHeartRate),
                    .u8(lap.maximumHeartRate), .u8(9), .u8(1),
                ])
        }
        // session: timestamp, start_time, total_elapsed_time, total_timer_time, total_distance, sport, total_calories, avg_hr, max_hr, num_laps, first_lap_index, event, event_type
        let sessions = activity.sessions.isEmpty ? [ActivityRecording.Session(start: start, elapsedSeconds: end.timeIntervalSince(start))] : activity.sessions
        body.define(
            local: 5, global: 18,
            [
                (253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (5, 1, 0x00), (11, 2, 0x84),
                (16, 1, 0x02), (17, 1, 0x02), (26, 2, 0x84), (25, 2, 0x84), (0, 1, 0x00), (1, 1, 0x00),
            ])
        for session in sessions {
            body.data(
                local: 5,
                [
                    .time(end), .time(session.start ?? start), .u32(session.elapsedSeconds.map { $0 * 1000 }),
                    .u32((session.timerSeconds ?? session.elapsedSeconds).map { $0 * 1000 }), .u32(session.distance.map { $0 * 100 }),
                    .u8(session.sport ?? 0), .u16(session.calories), .u8(session.averageHeartRate), .u8(session.maximumHeartRate),
                    .u16(laps.count), .u16(0), .u8(8), .u8(1),
                ])
        }
        // activity: timestamp, total_timer_time, num_sessions, type (0 manual), event (26), event_type (1 stop)
        body.define(local: 6, global: 34, [(253, 4, 0x86), (0, 4, 0x86), (1, 2, 0x84), (2, 1, 0x00), (3, 1, 0x00), (4, 1, 0x00)])
        body.data(local: 6, [.time(end), .u32(end.timeIntervalSince(start) * 1000), .u16(sessions.count), .u8(0), .u8(26), .u8(1)])

        var header: [UInt8] = [14, 0x20]
        header += le(UInt64(2132), 2)  // profile 21.32
        header += le(UInt64(body.bytes.count), 4)
        header += Array(".FIT".utf8)
        header += le(UInt64(FITCRC.compute(header)), 2)
        var file = header + body.bytes
        file += le(UInt64(FITCRC.compute(file)), 2)
        return file
    }

    static func le(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    enum Field {
        case u8(Int?)
        case s8(Int?)
        case u16(Int?)
        case u32(Double?)
        case u32z(UInt64)
        case s32(Double?)
        case time(Date)
        case string([UInt8])

        var bytes: [UInt8] {
            switch self {
            case .u8(let v): return [v.flatMap { (0...254).contains($0) ? UInt8($0) : nil } ?? 0xFF]
            case .s8(let v): return [v.flatMap { (-128...126).contains($0) ? UInt8(bitPattern: Int8($0)) : nil } ?? 0x7F]
            case .u16(let v): return FITEncoder.le(UInt64(v.flatMap { (0...0xFFFE).contains($0) ? $0 : nil } ?? 0xFFFF), 2)
            case .u32(let v):
                let r = v.flatMap { $0.isFinite ? $0.rounded() : nil }.flatMap { $0 >= 0 && $0 < 4_294_967_295 ? UInt64($0) : nil }
                return FITEncoder.le(r ?? 0xFFFF_FFFF, 4)
            case .u32z(let v): return FITEncoder.le(v <= UInt64(UInt32.max) ? v : 0, 4)
            case .s32(let v):
                let r = v.flatMap { $0.isFinite ? $0.rounded() : nil }.flatMap { $0 > -2_147_483_648 && $0 < 2_147_483_647 ? Int64($0) : nil }
                return FITEncoder.le(UInt64(bitPattern: r ?? 0x7FFF_FFFF), 4)
            case .string(let utf8): return utf8 + [0]
            case .time(let date):
                let seconds = date.timeIntervalSince(FITDecoder.epoch).rounded(.down)
                return FITEncoder.le(seconds >= 0 && seconds < 4_294_967_295 ? UInt64(seconds) : 0xFFFF_FFFF, 4)
            }
        }

        static func u16Array(_ values: [Double], count: Int) -> [UInt8] {
            (0..<count).flatMap { i -> [UInt8] in
                let v = i < values.count ? values[i] : .nan
                return Field.u16(v.isFinite && v >= 0 && v < 65_535 ? Int(v.rounded()) : nil).bytes
            }
        }
    }

    struct Body {
        var bytes: [UInt8] = []

        mutating func define(local: UInt8, global: UInt16, _ fields: [(number: UInt8, size: UInt8, type: UInt8)]) {
            bytes += [0x40 | local, 0, 0] + FITEncoder.le(UInt64(global), 2) + [UInt8(fields.count)]
            for field in fields { bytes += [field.number, field.size, field.type] }
        }

        mutating func data(local: UInt8, _ fields: [Field]) {
            bytes.append(local)
            for field in fields { bytes += field.bytes }
        }

        mutating func dataRaw(local: UInt8, _ raw: [UInt8]) {
            bytes.append(local)
            bytes += raw
        }
    }
}
