import Foundation
import HeartworkFormats
import HeartworkTestSupport
import Testing

/// The ZIP reader under the budgets of issue 29: every archive here is built in the test, by
/// `ZipStreamWriter` (what the account export writes) or by hand where an archive must lie.
@Suite("ZIP reader")
struct ZipReaderTests {
    static func deflate(_ bytes: [UInt8]) -> [UInt8] { ZipTestArchive.deflate(bytes) }
    static func crc(_ bytes: [UInt8]) -> UInt32 { ZipTestArchive.crc(bytes) }
    typealias Entry = ZipTestArchive.Entry
    static func handMade(_ entries: [Entry]) -> [UInt8] { ZipTestArchive.make(entries) }

    static func read(_ archive: ZipArchive, _ name: String, limit: Int64 = 1 << 30) throws -> [UInt8] {
        try archive.bytes(of: try #require(archive.entry(named: name)), limit: limit)
    }

    @Test func readsWhatTheAccountExportWrites() throws {
        let text = Array(String(repeating: "<Record value=\"72\"/>\n", count: 5000).utf8)
        var writer = ZipStreamWriter()
        var bytes = writer.entry(name: "apple_health_export/export.xml", bytes: text, deflated: Self.deflate(text))
        bytes += writer.entry(name: "apple_health_export/workout-routes/route_1.gpx", bytes: Array("<gpx/>".utf8))
        bytes += writer.finish()
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.count == 2)
        // By its full path and by its path inside the top folder, as the import asks.
        #expect(try Self.read(archive, "apple_health_export/export.xml") == text)
        #expect(try Self.read(archive, "export.xml") == text)
        #expect(try Self.read(archive, "workout-routes/route_1.gpx") == Array("<gpx/>".utf8))
        #expect(archive.entry(named: "route_1.gpx") == nil, "a name, not any suffix")
    }

    /// The probe's bomb: a route entry declaring 1,000 bytes that inflates to 64 MiB (1 GiB in
    /// the probe; the same stream, shorter). It stops at the declared size, holding at most one
    /// 64 KiB chunk past it.
    @Test func anEntryCannotInflatePastItsDeclaredSize() throws {
        let zeros = [UInt8](repeating: 0x20, count: 64 << 20)
        let bomb = Self.deflate(zeros)
        #expect(bomb.count < 100_000)
        let bytes = Self.handMade([Entry(name: "route.gpx", data: bomb, method: 8, crc: 0, size: 1000)])
        let archive = try ZipArchive(bytes: bytes)
        var delivered = 0
        #expect(throws: ZipError.self) {
            try archive.read(try #require(archive.entry(named: "route.gpx")), limit: 32 << 20) { delivered += $0.count }
        }
        #expect(delivered <= 1000, "nothing past the declared size reaches the reader: \(delivered)")
        do {
            _ = try Self.read(archive, "route.gpx")
            Issue.record("the bomb was read")
        } catch {
            #expect("\(error)".contains("inflates past the 1000 bytes"))
        }
    }

    @Test func aDeclaredSizeBeyondTheRatioIsRefusedBeforeReading() throws {
        let zeros = [UInt8](repeating: 0x20, count: 8 << 20)
        let compressed = Self.deflate(zeros)
        let bytes = Self.handMade([Entry(name: "export.xml", data: compressed, method: 8, crc: Self.crc(zeros), size: zeros.count)])
        let strict = try ZipArchive(bytes: bytes, limits: .init(maximumRatio: 200))
        #expect(throws: ZipError.self) { try Self.read(strict, "export.xml") }
        // The same archive under a looser ratio reads whole.
        let loose = try ZipArchive(bytes: bytes, limits: .init(maximumRatio: 2000))
        #expect(try Self.read(loose, "export.xml").count == zeros.count)
    }

    @Test func theArchivesTotalIsBudgeted() throws {
        let text = [UInt8](repeating: 0x41, count: 1 << 20)
        let entries = (0..<4).map { Entry(name: "part\($0).xml", data: text, crc: Self.crc(text), size: text.count) }
        let archive = try ZipArchive(bytes: Self.handMade(entries), limits: .init(maximumTotalBytes: 3 << 20))
        for index in 0..<3 { _ = try Self.read(archive, "part\(index).xml") }
        #expect(throws: ZipError.self) { try Self.read(archive, "part3.xml") }
    }

    /// The probe changed a value of a stored export.xml and kept its CRC: refused.
    @Test func aChangedEntryFailsItsChecksum() throws {
        let original = Array(#"<Record value="72"/>"#.utf8)
        let changed = Array(#"<Record value="99"/>"#.utf8)
        let archive = try ZipArchive(bytes: Self.handMade([Entry(name: "export.xml", data: changed, crc: Self.crc(original), size: changed.count)]))
        do {
            _ = try Self.read(archive, "export.xml")
            Issue.record("a changed entry was read")
        } catch {
            #expect("\(error)".contains("CRC-32 does not match"))
        }
    }

    /// A deflate stream cut in half ends with an error naming the entry (ZIPFoundation 0.9.20
    /// read on past it and, at the end of the file, spun for ever).
    @Test func aCutStreamEndsWithAnError() throws {
        let text = Array(String(repeating: "<trkpt lat=\"48.1\" lon=\"16.3\"/>\n", count: 20_000).utf8)
        let compressed = Self.deflate(text)
        let cut = Array(compressed.prefix(compressed.count / 2))
        let archive = try ZipArchive(bytes: Self.handMade([Entry(name: "route.gpx", data: cut, method: 8, crc: Self.crc(text), size: text.count)]))
        do {
            _ = try Self.read(archive, "route.gpx")
            Issue.record("a cut entry was read")
        } catch {
            #expect("\(error)".contains("ends before the stream does"))
        }
    }

    /// Not a zip: found out from the last 64 KiB + 22 bytes, however long the body.
    @Test func aBodyThatIsNotAZipIsRefusedFromItsTail() throws {
        #expect(!ZipArchive.looksLikeZip([UInt8](repeating: 0, count: 8)))
        #expect(ZipArchive.looksLikeZip([0x50, 0x4B, 0x03, 0x04, 0, 0]))
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        do {
            _ = try ZipArchive(bytes: zeros)
            Issue.record("zeros opened as a zip")
        } catch {
            #expect("\(error)".contains("no end-of-central-directory record in its last 65557 bytes"))
        }
    }

    /// The probe's 20,001 entries: one pass builds the index; each of 500 lookups is one
    /// dictionary read (a scan per lookup made it 80 s).
    @Test func manyEntriesAreIndexedOnce() throws {
        var writer = ZipStreamWriter()
        var bytes = [UInt8]()
        for index in 0..<20_001 {
            bytes += writer.entry(name: "apple_health_export/workout-routes/route_\(index).gpx", bytes: Array("\(index)".utf8))
        }
        bytes += writer.finish()
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.count == 20_001)
        for index in stride(from: 0, to: 20_001, by: 40) {
            #expect(try Self.read(archive, "workout-routes/route_\(index).gpx") == Array("\(index)".utf8))
        }
        #expect(throws: ZipError.self) { try ZipArchive(bytes: bytes, limits: .init(maximumEntries: 20_000)) }
    }

    /// Past 65,535 entries the writer adds ZIP64 records; the reader follows them.
    @Test func zip64DirectoriesAreRead() throws {
        var writer = ZipStreamWriter()
        var bytes = [UInt8]()
        for index in 0..<65_600 { bytes += writer.entry(name: "e\(index)", bytes: [UInt8(index & 0xFF)]) }
        bytes += writer.finish()
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.count == 65_600)
        #expect(try Self.read(archive, "e65599") == [UInt8(65_599 & 0xFF)])
    }

    /// Damaged archives of every kind end with a ZipError, never a trap: each prefix of a real
    /// archive, and every single byte of its directory changed.
    @Test func everyCutAndEveryChangedDirectoryByteIsAnError() throws {
        let text = Array(String(repeating: "<Record value=\"72\"/>\n", count: 200).utf8)
        var writer = ZipStreamWriter()
        var bytes = writer.entry(name: "a/export.xml", bytes: text, deflated: Self.deflate(text))
        bytes += writer.entry(name: "a/b.gpx", bytes: Array("<gpx/>".utf8))
        bytes += writer.finish()
        for length in 0..<bytes.count {
            if let archive = try? ZipArchive(bytes: Array(bytes.prefix(length))) {
                for entry in archive.entries { _ = try? archive.bytes(of: entry, limit: 1 << 20) }
            }
        }
        let directoryStart = bytes.count - 22 - 2 * 46 - "a/export.xml".utf8.count - "a/b.gpx".utf8.count
        for position in directoryStart..<bytes.count {
            var changed = bytes
            changed[position] ^= 0xA5
            if let archive = try? ZipArchive(bytes: changed) {
                for entry in archive.entries { _ = try? archive.bytes(of: entry, limit: 1 << 20) }
            }
        }
    }
}
