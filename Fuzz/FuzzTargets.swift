// libFuzzer targets for every decoder in HeartworkFormats (issue 13). Built by
// scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address` together with the Core and Formats
// sources (one binary); the target is chosen by HEARTWORK_FUZZ_TARGET. A decoder may refuse
// its input (that is its job); it must never trap, hang or read out of bounds.
import Foundation
import HeartworkCore
import HeartworkFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func heartworkFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    switch ProcessInfo.processInfo.environment["HEARTWORK_FUZZ_TARGET"] ?? "fit" {
    case "fit":
        var reader = FITActivityReader()
        // Fed in two pieces: the streaming path must give what the whole buffer gives.
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        reader.feed(bytes[0..<cut])
        reader.feed(bytes[cut...])
        let streamed = reader.finish()
        if streamed != FITActivityReader.read(bytes) { fatalError("chunked and whole decoding differ") }
        _ = try? ActivityWorkout.newWorkout(from: streamed)
    case "gpx", "tcx":
        // Malformed XML must end in a warning, and whatever was read must make a workout or a
        // clear refusal; what we write from it must read back.
        let recording = ActivityXMLReader.read(bytes)
        if let workout = try? ActivityWorkout.newWorkout(from: recording) {
            for format in ActivityFileFormat.allCases { _ = try? ActivityFiles.bytes(of: workout, format: format) }
        }
    case "hrm":
        _ = try? HeartRateMeasurementCodec.decode(bytes)
    case "rr":
        _ = try? RRFile.read(text: text)
    case "csv":
        _ = try? HeartRateCSV.read(text: text)
    case "json":
        _ = try? JSONValue.parse(bytes)
        _ = try? WorkoutJSON.read(bytes)
    case "streams":
        _ = try? WorkoutStreamCodec.decodeHeartRate(bytes)
        _ = try? WorkoutStreamCodec.decodeRRIntervals(bytes)
        _ = try? WorkoutStreamCodec.decodeTrack(bytes)
        _ = try? SensorBlockCodec.decode(bytes)
    case "gateway":
        _ = try? GatewayFrame.read(bytes)
        _ = try? LiveBusCodec.decode(text)
    case "health":
        // Apple Health's export.xml: in two pieces and whole, the same items when both succeed.
        func read(_ pieces: [ArraySlice<UInt8>]) -> [AppleHealthReader.Item]? {
            var reader = AppleHealthReader()
            var items = [AppleHealthReader.Item]()
            do {
                for piece in pieces { try reader.feed(piece) { items.append($0) } }
                try reader.finish()
                return items
            } catch {
                return nil
            }
        }
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        if let whole = read([bytes[...]]), let pieces = read([bytes[0..<cut], bytes[cut...]]), whole != pieces {
            fatalError("chunked and whole reading differ")
        }
        // The store's blocks of samples: refused or read, and what is read writes back the same.
        if let samples = try? HealthBlockCodec.decode(bytes), let again = try? HealthBlockCodec.decode(HealthBlockCodec.encode(samples)),
            again != samples.sorted(by: { $0.start < $1.start })
        {
            fatalError("a decoded health block does not survive a round trip")
        }
    case "zip":
        // The ZIP reader under small budgets: any bytes open or are refused; every entry reads
        // or is refused; nothing inflates past its declared size, the entry limit or the
        // archive's total (the reader's running count; checked here against what arrived).
        let limits = ZipArchive.Limits(maximumEntries: 64, maximumTotalBytes: 1 << 20, maximumRatio: 200)
        if let archive = try? ZipArchive(bytes: bytes, limits: limits) {
            var total = 0
            for entry in archive.entries {
                var delivered = 0
                do {
                    try archive.read(entry, limit: 256 << 10) { chunk in delivered += chunk.count }
                } catch {}
                if delivered > 256 << 10 || Int64(delivered) > entry.uncompressedSize { fatalError("read past a budget: \(delivered)") }
                total += delivered
            }
            if total > 1 << 20 { fatalError("the archive's total budget was passed: \(total)") }
            _ = archive.entry(named: "export.xml")
        }
    case "dbus":
        // A D-Bus message from the system bus (heartwork gateway): refused or read, and what is
        // read encodes to bytes that read back the same; addresses and signatures never trap.
        _ = try? DBusMessage.length(ofMessageStarting: bytes)
        if let message = try? DBusMessage.decode(bytes), (try? DBusMessage.decode(message.encoded())) != message {
            fatalError("a decoded D-Bus message does not survive a round trip")
        }
        _ = try? DBusAddress.parse(text)
        _ = try? DBusSignature.split(text)
    case "label":
        _ = try? NutritionLabel.parse(text)
    case "lifting":
        _ = try? LiftingLogCSV.read(text, timeZone: TimeZone(identifier: "UTC") ?? .current)
    default:
        fatalError("unknown HEARTWORK_FUZZ_TARGET")
    }
    return 0
}
