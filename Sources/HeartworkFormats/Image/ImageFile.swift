/// PNG and JPEG files checked from their first byte to their last, so a file that only
/// starts like an image (a PNG signature followed by HTML, say) is refused.
///
/// PNG: the signature, then chunks (length, type, data, CRC-32) with IHDR first and IEND last,
/// every CRC checked. JPEG: SOI, marker segments with their lengths up to a start-of-frame
/// (which gives the size) and a start-of-scan, the entropy-coded data, and EOI as the last
/// two bytes.
public struct ImageFile: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case png = "image/png"
        case jpeg = "image/jpeg"
    }

    public let kind: Kind
    public let width: Int
    public let height: Int

    public static let largestSide = 20_000

    public init(_ bytes: [UInt8]) throws(ImageFileError) {
        if bytes.starts(with: Self.pngSignature) {
            (width, height) = try Self.checkPNG(bytes)
            kind = .png
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            (width, height) = try Self.checkJPEG(bytes)
            kind = .jpeg
        } else {
            throw .notAnImage
        }
        guard (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height) else {
            throw .badSize(width: width, height: height)
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func checkPNG(_ bytes: [UInt8]) throws(ImageFileError) -> (Int, Int) {
        var offset = pngSignature.count
        var size: (Int, Int)?
        var sawData = false
        while true {
            guard offset + 12 <= bytes.count else { throw .truncated(offset: offset) }
            let length = Int(readUInt32(bytes, offset))
            let typeStart = offset + 4
            guard length <= bytes.count - typeStart - 8 else { throw .truncated(offset: offset) }
            let dataStart = typeStart + 4
            let crcStart = dataStart + length
            let type = String(decoding: bytes[typeStart..<dataStart], as: UTF8.self)
            let stored = readUInt32(bytes, crcStart)
            guard CRC32.checksum(bytes[typeStart..<crcStart]) == stored else { throw .badChecksum(offset: offset, chunk: type) }
            if size == nil {
                guard type == "IHDR", length == 13 else { throw .malformed(offset: offset, "the first chunk must be IHDR") }
                size = (Int(readUInt32(bytes, dataStart)), Int(readUInt32(bytes, dataStart + 4)))
            }
            if type == "IDAT" { sawData = true }
            offset = crcStart + 4
            if type == "IEND" {
                guard sawData else { throw .malformed(offset: offset, "no image data (IDAT)") }
                guard offset == bytes.count else { throw .trailingBytes(offset: offset) }
                return size ?? (0, 0)
            }
        }
    }

    private static func checkJPEG(_ bytes: [UInt8]) throws(ImageFileError) -> (Int, Int) {
        var offset = 2
        var size: (Int, Int)?
        while true {
            guard offset + 4 <= bytes.count else { throw .truncated(offset: offset) }
            guard bytes[offset] == 0xFF else { throw .malformed(offset: offset, "expected a marker") }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }  // fill byte
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { throw .truncated(offset: offset) }
            // Start of frame (baseline, progressive, …; not DHT C4, JPG C8 or DAC CC): the size.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8 else { throw .malformed(offset: offset, "a start-of-frame segment is too short") }
                size = (Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8]), Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]))
            }
            offset += 2 + length
            if marker == 0xDA {  // start of scan: entropy-coded data up to EOI at the very end
                guard let size else { throw .malformed(offset: offset, "image data before the frame header") }
                guard bytes.count >= offset + 2, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
                    throw .truncated(offset: bytes.count)
                }
                return size
            }
        }
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

/// Why bytes are not a usable image, with the byte offset at fault.
public enum ImageFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAnImage
    case truncated(offset: Int)
    case badChecksum(offset: Int, chunk: String)
    case malformed(offset: Int, String)
    case trailingBytes(offset: Int)
    case badSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case .notAnImage: "not a PNG or JPEG image"
        case .truncated(let offset): "the image is cut short at byte \(offset)"
        case .badChecksum(let offset, let chunk): "the PNG chunk \(chunk) at byte \(offset) is damaged (CRC mismatch)"
        case .malformed(let offset, let what): "not a valid image at byte \(offset): \(what)"
        case .trailingBytes(let offset): "unexpected bytes after the end of the image at byte \(offset)"
        case .badSize(let width, let height): "an image of \(width)×\(height) pixels is not accepted (1–\(ImageFile.largestSide) per side)"
        }
    }
}
