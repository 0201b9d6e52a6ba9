import Foundation
import HeartworkZlib

/// Archives and images made by hand: headers that say what a test wants them to.
public enum ZipTestArchive {
    public struct Entry {
        public var name: String
        public var data: [UInt8]
        public var method: UInt16
        public var crc: UInt32
        public var size: Int

        public init(name: String, data: [UInt8], method: UInt16 = 0, crc: UInt32, size: Int) {
            self.name = name
            self.data = data
            self.method = method
            self.crc = crc
            self.size = size
        }
    }

    public static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                _ = HeartworkZlib.deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    public static func crc(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    public static func make(_ entries: [Entry]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var out = [UInt8]()
        var directory = [UInt8]()
        for entry in entries {
            let offset = out.count
            let name = Array(entry.name.utf8)
            out +=
                u32(0x0403_4B50) + u16(20) + u16(0) + u16(Int(entry.method)) + u16(0) + u16(0) + u32(Int(entry.crc)) + u32(entry.data.count)
                + u32(entry.size) + u16(name.count) + u16(0) + name + entry.data
            directory +=
                u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(Int(entry.method)) + u16(0) + u16(0) + u32(Int(entry.crc))
                + u32(entry.data.count) + u32(entry.size) + u16(name.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(offset) + name
        }
        let directoryOffset = out.count
        out += directory
        out += u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count) + u32(directory.count) + u32(directoryOffset) + u16(0)
        return out
    }

    /// A valid PNG (every chunk's CRC right) whose header declares `width`×`height`, with a
    /// few bytes of image data: what a decoder would be asked to allocate is the header's.
    public static func png(width: Int, height: Int) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return u32(data.count) + body + u32(Int(crc(body)))
        }
        let header = u32(width) + u32(height) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + chunk("IEND", [])
    }
}
