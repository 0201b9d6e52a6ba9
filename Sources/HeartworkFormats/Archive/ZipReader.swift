import Foundation
import HeartworkZlib

/// Reads ZIP archives (APPNOTE.TXT 6.3.x: stored and deflated entries, ZIP64) from a file or
/// from bytes, with a running budget: nothing in the archive is trusted before it is checked.
///
/// - The end-of-central-directory record is looked for only in the last 65,557 bytes (22
///   bytes of record and at most 65,535 of comment): a body that is not a zip fails in one
///   read, whatever its size.
/// - The central directory is read once, in one pass, into an index by name (at most
///   `Limits.maximumEntries` entries and 64 MiB of directory), so finding an entry is a
///   dictionary lookup however many entries and lookups there are.
/// - An entry is inflated with zlib from exactly its compressed bytes; what comes out is
///   counted as it comes — never past the size its header declares, nor the caller's limit,
///   nor the archive's running total, nor `maximumRatio` times its compressed size — and its
///   CRC-32 is checked at the end. A stream that ends early, runs past its bytes or is
///   corrupt is an error naming the entry.
///
/// Written here rather than taken from ZIPFoundation (0.9.20), which the daily-health import
/// used before: on Linux its inflater ignores an entry's compressed size and sets zlib's input
/// length to the buffer's size whatever was read, so a deflate stream cut short is inflated on
/// into the bytes after it and then, at the end of the file, spins for ever (measured on
/// 2026-11-26: an 8.7 KB export.zip whose route entry was cut kept the import worker at 100 %
/// CPU until the process was killed); its end-of-central-directory search reads the file
/// backwards four bytes at a time from the end to the start (13 minutes for 1 GiB of zeros);
/// its entry lookup reads every local header again; and the CRC it computes is left to the
/// caller to compare.
public struct ZipArchive: Sendable {
    /// The budgets an archive is read under.
    public struct Limits: Sendable, Hashable {
        /// Most entries in the central directory.
        public var maximumEntries: Int
        /// Most bytes inflated from the whole archive, over every read.
        public var maximumTotalBytes: Int64
        /// Most bytes one entry may inflate to per compressed byte (past its first MiB):
        /// DEFLATE reaches 1,032:1 on a run of one byte, an Apple Health export.xml ~40:1.
        public var maximumRatio: Int64

        public init(maximumEntries: Int = 100_000, maximumTotalBytes: Int64 = 64 << 30, maximumRatio: Int64 = 200) {
            self.maximumEntries = maximumEntries
            self.maximumTotalBytes = maximumTotalBytes
            self.maximumRatio = maximumRatio
        }
    }

    /// One file of the archive, as its central directory describes it.
    public struct Entry: Sendable, Hashable {
        public let path: String
        public let compressedSize: Int64
        public let uncompressedSize: Int64
        public let crc32: UInt32
        let method: UInt16
        let flags: UInt16
        let localHeaderOffset: Int64
        public var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// The largest central directory read (100,000 entries of long names fit).
    public static let maximumDirectoryBytes = 64 << 20
    static let endRecordSize = 22
    static let maximumCommentBytes = 65_535

    public let entries: [Entry]
    /// Paths, and paths inside the archive's top folder ("export.xml" for
    /// "apple_health_export/export.xml"), to the first entry of each.
    private let index: [String: Int]
    private let source: any ZipSource
    private let limits: Limits
    private let directoryStart: Int64
    private let inflated = InflatedTotal()

    /// Whether `prefix` (the first bytes of a body) can begin a ZIP archive: a local file
    /// header, or the end record of an empty archive.
    public static func looksLikeZip(_ prefix: some Collection<UInt8>) -> Bool {
        let head = Array(prefix.prefix(4))
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }

    /// Opens the archive at `path`.
    public init(path: String, limits: Limits = Limits()) throws(ZipError) {
        try self.init(source: try FileZipSource(path: path), limits: limits)
    }

    /// Opens an archive held in memory.
    public init(bytes: [UInt8], limits: Limits = Limits()) throws(ZipError) {
        try self.init(source: BytesZipSource(bytes: bytes), limits: limits)
    }

    init(source: any ZipSource, limits: Limits) throws(ZipError) {
        self.source = source
        self.limits = limits
        let size = source.size
        guard size >= Int64(Self.endRecordSize) else { throw ZipError.notAZip("it is \(size) bytes, shorter than a ZIP end record") }
        // The end record: searched backwards through the last 22 + 65,535 bytes only.
        let tailLength = Int(min(size, Int64(Self.endRecordSize + Self.maximumCommentBytes)))
        let tailStart = size - Int64(tailLength)
        let tail = try source.read(at: tailStart, count: tailLength)
        var endAt: Int?
        var candidate = tail.count - Self.endRecordSize
        while candidate >= 0 {
            if Self.u32(tail, candidate) == 0x0605_4B50 {
                let commentLength = Int(Self.u16(tail, candidate + 20))
                if candidate + Self.endRecordSize + commentLength <= tail.count {
                    endAt = candidate
                    break
                }
            }
            candidate -= 1
        }
        guard let endAt else { throw ZipError.notAZip("no end-of-central-directory record in its last \(tailLength) bytes") }
        let endOffset = tailStart + Int64(endAt)
        var count = Int64(Self.u16(tail, endAt + 10))
        var directorySize = Int64(Self.u32(tail, endAt + 12))
        var directoryOffset = Int64(Self.u32(tail, endAt + 16))
        var directoryEnd = endOffset
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: a locator just before the end record names the ZIP64 end record.
            guard endOffset >= 20 else { throw ZipError.malformed("a ZIP64 archive without its locator") }
            let locator = try source.read(at: endOffset - 20, count: 20)
            guard Self.u32(locator, 0) == 0x0706_4B50 else { throw ZipError.malformed("a ZIP64 archive without its locator") }
            let recordOffset = Self.u64(locator, 8)
            guard recordOffset >= 0, recordOffset <= endOffset - 20 - 56 else { throw ZipError.malformed("the ZIP64 end record lies outside the file") }
            let record = try source.read(at: recordOffset, count: 56)
            guard Self.u32(record, 0) == 0x0606_4B50 else { throw ZipError.malformed("no ZIP64 end record where the locator points") }
            count = Self.u64(record, 32)
            directorySize = Self.u64(record, 40)
            directoryOffset = Self.u64(record, 48)
            directoryEnd = recordOffset
        }
        guard count >= 0, count <= Int64(limits.maximumEntries) else {
            throw ZipError.tooManyEntries(limit: limits.maximumEntries)
        }
        guard directorySize >= 0, directorySize <= Int64(Self.maximumDirectoryBytes) else {
            throw ZipError.malformed("its central directory is larger than \(Self.maximumDirectoryBytes >> 20) MiB")
        }
        guard directoryOffset >= 0, directoryOffset <= directoryEnd - directorySize else {
            throw ZipError.malformed("its central directory lies outside the file (a cut download?)")
        }
        let directory = try source.read(at: directoryOffset, count: Int(directorySize))
        var entries = [Entry]()
        entries.reserveCapacity(Int(count))
        var index = [String: Int]()
        var at = 0
        for number in 0..<Int(count) {
            guard at + 46 <= directory.count, Self.u32(directory, at) == 0x0201_4B50 else {
                throw ZipError.malformed("central directory entry \(number + 1) of \(count) is damaged")
            }
            let flags = Self.u16(directory, at + 8)
            let method = Self.u16(directory, at + 10)
            let crc = Self.u32(directory, at + 16)
            var compressed = Int64(Self.u32(directory, at + 20))
            var uncompressed = Int64(Self.u32(directory, at + 24))
            let nameLength = Int(Self.u16(directory, at + 28))
            let extraLength = Int(Self.u16(directory, at + 30))
            let commentLength = Int(Self.u16(directory, at + 32))
            var offset = Int64(Self.u32(directory, at + 42))
            let nameStart = at + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= directory.count else { throw ZipError.malformed("central directory entry \(number + 1) runs past the directory") }
            // ZIP64 extended information (header 0x0001): the saturated fields, in order.
            var extra = extraStart
            while extra + 4 <= extraStart + extraLength {
                let id = Self.u16(directory, extra)
                let length = Int(Self.u16(directory, extra + 2))
                let body = extra + 4
                guard body + length <= extraStart + extraLength else { break }
                if id == 0x0001 {
                    var field = body
                    func take() -> Int64? {
                        guard field + 8 <= body + length else { return nil }
                        defer { field += 8 }
                        return Self.u64(directory, field)
                    }
                    if uncompressed == 0xFFFF_FFFF, let value = take() { uncompressed = value }
                    if compressed == 0xFFFF_FFFF, let value = take() { compressed = value }
                    if offset == 0xFFFF_FFFF, let value = take() { offset = value }
                }
                extra = body + length
            }
            guard compressed >= 0, uncompressed >= 0, offset >= 0, offset < directoryOffset else {
                throw ZipError.malformed("central directory entry \(number + 1) has sizes or an offset outside the file")
            }
            let path = String(decoding: directory[nameStart..<extraStart], as: UTF8.self)
            entries.append(
                Entry(
                    path: path, compressedSize: compressed, uncompressedSize: uncompressed, crc32: crc, method: method, flags: flags,
                    localHeaderOffset: offset))
            if index[path] == nil { index[path] = entries.count - 1 }
            if let slash = path.firstIndex(of: "/") {
                let inner = String(path[path.index(after: slash)...])
                if !inner.isEmpty, index[inner] == nil { index[inner] = entries.count - 1 }
            }
            at = next
        }
        self.entries = entries
        self.index = index
        directoryStart = directoryOffset
    }

    /// The file entry at `path`, or at `path` inside the archive's top folder (as a zipped
    /// folder holds it: `export.xml` finds `apple_health_export/export.xml`). A lookup in the
    /// index built when the archive was opened.
    public func entry(named path: String) -> Entry? {
        guard let found = index[path].map({ entries[$0] }), !found.isDirectory else { return nil }
        return found
    }

    /// Every byte of `entry`, refused past `limit` bytes.
    public func bytes(of entry: Entry, limit: Int64) throws(ZipError) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(min(entry.uncompressedSize, limit, 1 << 24)))
        do {
            try read(entry, limit: limit) { bytes.append(contentsOf: $0) }
        } catch let error as ZipError {
            throw error
        } catch {
            throw ZipError.io("\(error)")  // not reached: appending does not throw
        }
        return bytes
    }

    /// Inflates `entry` and hands its bytes to `body` in chunks of at most 64 KiB, counting
    /// them against the entry's declared size, `limit`, the ratio and the archive's total, and
    /// checks its CRC-32 at the end. Throws a `ZipError`, or what `body` throws (which stops
    /// the read).
    public func read(_ entry: Entry, limit: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let name = entry.path
        guard entry.flags & 0x1 == 0 else { throw ZipError.unreadableEntry(name, "it is encrypted") }
        guard entry.uncompressedSize <= limit else { throw ZipError.entryTooLarge(name, limit: limit) }
        let ratioAllowance = entry.compressedSize.multipliedReportingOverflow(by: limits.maximumRatio)
        let ratioLimit = ratioAllowance.overflow ? Int64.max : ratioAllowance.partialValue + (1 << 20)
        guard entry.uncompressedSize <= ratioLimit else {
            throw ZipError.unreadableEntry(name, "it declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed (more than \(limits.maximumRatio):1)")
        }
        let header = try source.read(at: entry.localHeaderOffset, count: 30)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw ZipError.unreadableEntry(name, "no local header at byte \(entry.localHeaderOffset)") }
        let dataStart = entry.localHeaderOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        guard dataStart <= directoryStart, entry.compressedSize <= directoryStart - dataStart else {
            throw ZipError.unreadableEntry(name, "its data runs past the end of the entries (a cut or damaged file)")
        }
        var produced: Int64 = 0
        var crc = crc32(0, nil, 0)
        func deliver(_ chunk: UnsafeBufferPointer<UInt8>) throws {
            guard !chunk.isEmpty else { return }
            produced += Int64(chunk.count)
            guard produced <= entry.uncompressedSize else {
                throw ZipError.unreadableEntry(name, "it inflates past the \(entry.uncompressedSize) bytes its header declares (damaged, or built to exhaust memory)")
            }
            guard inflated.add(Int64(chunk.count), limit: limits.maximumTotalBytes) else {
                throw ZipError.archiveTooLarge(limit: limits.maximumTotalBytes)
            }
            crc = crc32(crc, chunk.baseAddress, UInt32(chunk.count))
            try body(chunk)
        }
        let chunkSize = 1 << 16
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw ZipError.unreadableEntry(name, "a stored entry whose sizes differ (\(entry.compressedSize) and \(entry.uncompressedSize))")
            }
            var position = dataStart
            let end = dataStart + entry.compressedSize
            while position < end {
                let count = Int(min(Int64(chunkSize), end - position))
                let chunk = try source.read(at: position, count: count)
                try chunk.withUnsafeBufferPointer { buffer in try deliver(buffer) }
                position += Int64(count)
            }
        case 8:
            try inflate(from: dataStart, compressedSize: entry.compressedSize, name: name, chunkSize: chunkSize, deliver: deliver)
        default:
            throw ZipError.unreadableEntry(name, "compression method \(entry.method) is not stored or deflate")
        }
        guard produced == entry.uncompressedSize else {
            throw ZipError.unreadableEntry(name, "it holds \(produced) bytes, not the \(entry.uncompressedSize) its header declares (a cut file?)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw ZipError.unreadableEntry(name, "its CRC-32 does not match: the bytes were changed or damaged")
        }
    }

    private func inflate(
        from start: Int64, compressedSize: Int64, name: String, chunkSize: Int,
        deliver: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError.unreadableEntry(name, "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: chunkSize)
        var position = start
        let end = start + compressedSize
        var finished = false
        while !finished {
            guard position < end else {
                throw ZipError.unreadableEntry(name, "its compressed data ends before the stream does (a cut file?)")
            }
            let count = Int(min(Int64(chunkSize), end - position))
            var input = try source.read(at: position, count: count)
            position += Int64(count)
            try input.withUnsafeMutableBufferPointer { inputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                repeat {
                    let (status, written) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        let status = HeartworkZlib.inflate(&stream, Z_NO_FLUSH)
                        return (status, out.count - Int(stream.avail_out))
                    }
                    switch status {
                    case Z_OK, Z_BUF_ERROR: break
                    case Z_STREAM_END: finished = true
                    default: throw ZipError.unreadableEntry(name, "its compressed data is corrupt (zlib \(status))")
                    }
                    try output.withUnsafeBufferPointer { buffer in try deliver(UnsafeBufferPointer(rebasing: buffer[0..<written])) }
                    if status == Z_BUF_ERROR, written == 0 { break }
                } while !finished && (stream.avail_in > 0 || stream.avail_out == 0)
                stream.next_in = nil
            }
            if finished, stream.avail_in > 0 || position < end {
                // Bytes after the stream's end inside the entry: allowed by zlib, harmless.
                break
            }
        }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16
    }

    /// A little-endian 64-bit field as a signed size (values past Int64.max become negative and
    /// are refused by the callers' range checks).
    static func u64(_ bytes: [UInt8], _ at: Int) -> Int64 {
        Int64(bitPattern: UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32)
    }
}

/// What goes wrong reading an archive; every case says what and where.
public enum ZipError: Error, CustomStringConvertible, Sendable {
    case notAZip(String)
    case malformed(String)
    case tooManyEntries(limit: Int)
    case entryTooLarge(String, limit: Int64)
    case archiveTooLarge(limit: Int64)
    case unreadableEntry(String, String)
    case io(String)

    public var description: String {
        switch self {
        case .notAZip(let why): "not a ZIP archive: \(why)"
        case .malformed(let why): "a damaged ZIP archive: \(why)"
        case .tooManyEntries(let limit): "the archive holds more than \(limit) files"
        case .entryTooLarge(let name, let limit): "\(name) is larger than \(Self.size(limit)) (the most taken)"
        case .archiveTooLarge(let limit): "the archive inflates to more than \(Self.size(limit)) (the most taken)"
        case .unreadableEntry(let name, let why): "\(name) cannot be read: \(why)"
        case .io(let why): "the archive cannot be read: \(why)"
        }
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

/// Random access to an archive's bytes.
protocol ZipSource: Sendable {
    var size: Int64 { get }
    /// Exactly `count` bytes from `offset` (an error when the source is shorter).
    func read(at offset: Int64, count: Int) throws(ZipError) -> [UInt8]
}

struct BytesZipSource: ZipSource {
    let bytes: [UInt8]
    var size: Int64 { Int64(bytes.count) }

    func read(at offset: Int64, count: Int) throws(ZipError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw ZipError.malformed("a read of \(count) bytes at \(offset) runs past the end (\(size) bytes)")
        }
        return Array(bytes[Int(offset)..<Int(offset) + count])
    }
}

/// A file read with `pread`, so one archive may be read from several places at once.
final class FileZipSource: ZipSource {
    let descriptor: Int32
    let size: Int64

    init(path: String) throws(ZipError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ZipError.io("cannot open it (\(String(cString: strerror(errno))))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw ZipError.io("cannot read its size")
        }
        self.descriptor = descriptor
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    func read(at offset: Int64, count: Int) throws(ZipError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw ZipError.malformed("a read of \(count) bytes at \(offset) runs past the end (\(size) bytes; a cut file?)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw ZipError.io(got == 0 ? "the file ends early" : String(cString: strerror(errno))) }
            done += got
        }
        return bytes
    }
}

/// The bytes an archive has inflated so far, over every read of it (reads may run at once).
final class InflatedTotal: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int64 = 0

    func add(_ count: Int64, limit: Int64) -> Bool {
        lock.withLock {
            total += count
            return total <= limit
        }
    }
}
