import Foundation

/// A ZIP archive written front to back, one entry at a time, so an archive of any size can be
/// sent while it is made (the account export). Each entry is given whole (its bytes, and its
/// raw-deflated bytes when the caller compressed it), so sizes and CRC-32 go in the local
/// header and no data descriptor is needed. ZIP64 records are added when the archive passes
/// 4 GiB or 65,535 entries (APPNOTE.TXT 6.3.x, sections 4.3 and 4.5.3).
///
/// Written by hand because the ZIP libraries at hand (ZIPFoundation) write to a file or a
/// whole buffer, not to a stream; the archives are checked by Python's `zipfile` in CI
/// (Tests/Reference/zip_crosscheck.py) and by `unzip -t` where it is installed.
public struct ZipStreamWriter: Sendable {
    public enum Method: UInt16, Sendable {
        case stored = 0
        case deflated = 8
    }

    struct CentralEntry: Sendable {
        var name: [UInt8]
        var method: Method
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var offset: UInt64
        var time: UInt16
        var date: UInt16
    }

    private var entries: [CentralEntry] = []
    private var offset: UInt64 = 0
    private var names = Set<String>()

    public init() {}

    /// The bytes of one entry. `deflated` is the entry's raw DEFLATE stream (RFC 1951) when the
    /// caller compressed it; it is used only when smaller than the bytes themselves.
    /// Names are made safe: no leading "/", no "..", no backslashes; a repeated name gets " (2)".
    public mutating func entry(name: String, bytes: [UInt8], deflated: [UInt8]? = nil, modified: Date = Date()) -> [UInt8] {
        let safe = uniqueName(Self.safeName(name))
        let nameBytes = Array(safe.utf8)
        let crc = CRC32.checksum(bytes)
        let (method, data): (Method, [UInt8]) = if let deflated, deflated.count < bytes.count { (.deflated, deflated) } else { (.stored, bytes) }
        let (time, date) = Self.dosTime(modified)
        let zip64 = UInt64(bytes.count) >= 0xFFFF_FFFF || UInt64(data.count) >= 0xFFFF_FFFF
        var out = [UInt8]()
        out.reserveCapacity(30 + nameBytes.count + data.count + 20)
        out.le32(0x0403_4B50)
        out.le16(zip64 ? 45 : 20)  // version needed
        out.le16(0x0800)  // UTF-8 names
        out.le16(method.rawValue)
        out.le16(time)
        out.le16(date)
        out.le32(crc)
        out.le32(zip64 ? 0xFFFF_FFFF : UInt32(data.count))
        out.le32(zip64 ? 0xFFFF_FFFF : UInt32(bytes.count))
        out.le16(UInt16(nameBytes.count))
        out.le16(zip64 ? 20 : 0)
        out += nameBytes
        if zip64 {
            out.le16(0x0001)
            out.le16(16)
            out.le64(UInt64(bytes.count))
            out.le64(UInt64(data.count))
        }
        out += data
        entries.append(
            CentralEntry(
                name: nameBytes, method: method, crc: crc, compressedSize: UInt64(data.count), size: UInt64(bytes.count),
                offset: offset, time: time, date: date))
        offset += UInt64(out.count)
        return out
    }

    /// The central directory and the end records: the archive's last bytes.
    public func finish(comment: String = "") -> [UInt8] {
        var out = [UInt8]()
        let directoryStart = offset
        for entry in entries {
            let needs = (size: entry.size >= 0xFFFF_FFFF, compressed: entry.compressedSize >= 0xFFFF_FFFF, offset: entry.offset >= 0xFFFF_FFFF)
            var extra = [UInt8]()
            if needs.size || needs.compressed || needs.offset {
                var body = [UInt8]()
                if needs.size { body.le64(entry.size) }
                if needs.compressed { body.le64(entry.compressedSize) }
                if needs.offset { body.le64(entry.offset) }
                extra.le16(0x0001)
                extra.le16(UInt16(body.count))
                extra += body
            }
            out.le32(0x0201_4B50)
            out.le16(0x0314)  // made by: Unix, 2.0
            out.le16(extra.isEmpty ? 20 : 45)
            out.le16(0x0800)
            out.le16(entry.method.rawValue)
            out.le16(entry.time)
            out.le16(entry.date)
            out.le32(entry.crc)
            out.le32(needs.compressed ? 0xFFFF_FFFF : UInt32(entry.compressedSize))
            out.le32(needs.size ? 0xFFFF_FFFF : UInt32(entry.size))
            out.le16(UInt16(entry.name.count))
            out.le16(UInt16(extra.count))
            out.le16(0)  // comment
            out.le16(0)  // disk
            out.le16(0)  // internal attributes
            out.le32(0o100600 << 16)  // a regular file, readable by its owner only
            out.le32(needs.offset ? 0xFFFF_FFFF : UInt32(entry.offset))
            out += entry.name
            out += extra
        }
        let directorySize = UInt64(out.count)
        let count = UInt64(entries.count)
        let zip64 = count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        if zip64 {
            let recordOffset = directoryStart + directorySize
            out.le32(0x0606_4B50)
            out.le64(44)
            out.le16(0x0314)
            out.le16(45)
            out.le32(0)
            out.le32(0)
            out.le64(count)
            out.le64(count)
            out.le64(directorySize)
            out.le64(directoryStart)
            out.le32(0x0706_4B50)
            out.le32(0)
            out.le64(recordOffset)
            out.le32(1)
        }
        let commentBytes = Array(comment.utf8.prefix(0xFFFF))
        out.le32(0x0605_4B50)
        out.le16(0)
        out.le16(0)
        out.le16(zip64 ? 0xFFFF : UInt16(count))
        out.le16(zip64 ? 0xFFFF : UInt16(count))
        out.le32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize))
        out.le32(zip64 ? 0xFFFF_FFFF : UInt32(directoryStart))
        out.le16(UInt16(commentBytes.count))
        out += commentBytes
        return out
    }

    /// A relative path with no way out of the folder it is unpacked into.
    static func safeName(_ name: String) -> String {
        let parts = name.replacingOccurrences(of: "\\", with: "/").split(separator: "/").filter { $0 != "." && $0 != ".." && !$0.isEmpty }
        let cleaned = parts.map { part in
            String(part.unicodeScalars.map { $0.value < 0x20 || $0 == ":" ? "_" : Character($0) }).prefix(200)
        }.joined(separator: "/")
        return cleaned.isEmpty ? "unnamed" : String(cleaned.prefix(1000))
    }

    private mutating func uniqueName(_ name: String) -> String {
        var candidate = name
        var number = 2
        while names.contains(candidate) {
            if let dot = name.lastIndex(of: "."), dot > name.startIndex, !name[dot...].contains("/") {
                candidate = "\(name[..<dot]) (\(number))\(name[dot...])"
            } else {
                candidate = "\(name) (\(number))"
            }
            number += 1
        }
        names.insert(candidate)
        return candidate
    }

    /// MS-DOS time and date, in UTC (ZIP has no zone), clamped to 1980–2107.
    static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = min(max(parts.year ?? 1980, 1980), 2107)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }
}

extension [UInt8] {
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    fileprivate mutating func le64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
