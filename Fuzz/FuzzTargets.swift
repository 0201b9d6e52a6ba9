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
    case "jsonkeys":
        // Issue 40: objects of many keys. The input's bytes become the names of one object's
        // members (some repeated, some escaped) and of objects nested in it; whatever the parser
        // says, it must say the same whether a repeat lies within the scanned first members or
        // past them, and a member it kept must be found by name.
        var names = [String]()
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index] % 12)
            let name = bytes[(index + 1)..<min(bytes.count, index + 1 + length)].map { "k\($0 % 64)" }.joined()
            names.append(name.isEmpty ? "\\u0041" : name)
            index += 1 + length
        }
        let document = "{" + names.enumerated().map { "\"\($1)\":\($0 % 3 == 0 ? "{\"\($1)\":[\($0)]}" : "\($0)")" }.joined(separator: ",") + "}"
        let parsed = try? JSONValue.parse(Array(document.utf8))
        let decoded = names.map { $0 == "\\u0041" ? "A" : $0 }
        if (parsed == nil) != (Set(decoded).count != decoded.count) { fatalError("a repeated name was missed or a distinct one refused") }
        if let parsed, let first = decoded.first, parsed[first] == nil { fatalError("a member is not found by its name") }
        _ = try? GatewayFrame.read(Array(document.utf8))
    case "photo":
        // Issue 40: photos are decoded and written again; any bytes must be refused or come out
        // a photo that reads back (within a small pixel bound, as the server's).
        if let out = try? PhotoCodec.reencode(bytes, fitting: 64, maximumPixels: 1 << 16) {
            guard (try? ImageFile(out.bytes)) != nil else { fatalError("a re-encoded photo does not read back") }
        }
    case "delimited":
        // Issue 40: the streaming CSV reader, fed in pieces cut where the first byte says, gives
        // the rows it gives the whole; and no row it keeps breaks its bounds.
        let whole = try? DelimitedText.rows(text, maximumRows: 100_000)
        var reader = DelimitedText.Reader()
        var rows = [DelimitedText.Row]()
        let step = bytes.isEmpty ? 1 : max(1, Int(bytes[0]) % 17)
        var offset = 0
        var source = Array(text.utf8)
        if source.starts(with: [0xEF, 0xBB, 0xBF]) { source.removeFirst(3) }
        while offset < source.count {
            reader.feed(source[offset..<min(source.count, offset + step)]) { row in
                rows.append(row)
                return true
            }
            offset += step
        }
        // `finish` answers nil when no row is left (an empty text): only a throw is a failure.
        do {
            if let last = try reader.finish() { rows.append(last) }
        } catch {
            if whole != nil { fatalError("the pieces failed where the whole did not") }
        }
        if let whole, whole != rows { fatalError("rows read in pieces differ from the whole") }
        for row in rows where row.fields.count > DelimitedText.maximumFields || row.fields.contains(where: { $0.utf8.count > DelimitedText.maximumFieldBytes }) {
            fatalError("a kept row breaks its bounds")
        }
        var lifting = LiftingLogReader(timeZone: TimeZone(identifier: "UTC") ?? .current)
        try? lifting.feed(bytes)
        _ = try? lifting.finish()
    default:
        fatalError("unknown HEARTWORK_FUZZ_TARGET")
    }
    return 0
}
