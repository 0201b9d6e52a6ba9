import HeartworkZlib

/// An 8-bit RGBA raster, row by row.
public struct RasterImage: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Photos re-encoded to a bounded size (issue 40: a 20,000 × 20,000 PNG of 48 kB was stored
/// as sent and decoded to 1.6 GB by every browser that showed it; a phone's JPEG carries its
/// camera's GPS position in its EXIF data). A PNG or a baseline JPEG is decoded (within the
/// caller's pixel bound), turned upright by its EXIF orientation, scaled down to fit `side`
/// pixels a side by averaging, and written again — a JPEG as a baseline JPEG (quality 85,
/// 4:2:0, no metadata), a PNG as a PNG (its transparency kept). A format this reader does not
/// decode (a progressive or 12-bit JPEG, arithmetic coding, CMYK) comes back `nil`: the caller
/// keeps the file as it is, within its bounds.
///
/// Our own code: the mirror holds no image library, and the system's libjpeg would be a build
/// dependency the single static binary does not have. Checked against Pillow's decoder on
/// files Pillow wrote (Tests/Reference/make_photo_fixtures.py).
public enum PhotoCodec {
    public struct Reencoded: Sendable, Hashable {
        public let bytes: [UInt8]
        public let kind: ImageFile.Kind
        public let width: Int
        public let height: Int
    }

    /// The photo re-encoded to fit `side` (nil: a format not decoded here). One that fits
    /// already and holds nothing but its image (no EXIF, XMP, comments or text; upright) is
    /// kept as it is: a JPEG written again loses a little each time.
    public static func reencode(_ bytes: [UInt8], fitting side: Int, maximumPixels: Int) throws(ImageFileError) -> Reencoded? {
        let file = try ImageFile(bytes)
        guard file.width * file.height <= maximumPixels else { throw .badSize(width: file.width, height: file.height) }
        if max(file.width, file.height) <= side, holdsOnlyTheImage(bytes, file.kind) {
            return Reencoded(bytes: bytes, kind: file.kind, width: file.width, height: file.height)
        }
        switch file.kind {
        case .png:
            let image = try PNGDecoder.decode(bytes)
            let scaled = scale(image, fitting: side)
            return Reencoded(bytes: PNGEncoder.encode(scaled), kind: .png, width: scaled.width, height: scaled.height)
        case .jpeg:
            guard let decoded = try JPEGDecoder.decode(bytes) else { return nil }
            let upright = orient(scale(decoded.image, fitting: side), decoded.orientation)
            return Reencoded(bytes: JPEGEncoder.encode(upright, quality: 85), kind: .jpeg, width: upright.width, height: upright.height)
        }
    }

    /// PNG chunks that describe only the image (how to show its colours), never its maker,
    /// place or words.
    static let imageChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD"]

    /// Whether the file has nothing beside its image (a PNG's chunks are `imageChunks`; a
    /// JPEG's application segments are JFIF's, Adobe's and an ICC profile, no comment) —
    /// and, for a JPEG, no EXIF, so no orientation to apply.
    static func holdsOnlyTheImage(_ bytes: [UInt8], _ kind: ImageFile.Kind) -> Bool {
        switch kind {
        case .png:
            var offset = 8
            while offset + 12 <= bytes.count {
                let length = Int(u32(bytes, offset))
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                guard imageChunks.contains(type) else { return false }
                if type == "IEND" { return true }
                offset += 12 + length
            }
            return false
        case .jpeg:
            var offset = 2
            while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                if marker == 0xDA { return true }  // the scan: no metadata before it
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                let body = bytes[min(bytes.count, offset + 4)..<min(bytes.count, offset + 2 + length)]
                switch marker {
                case 0xE0: guard body.starts(with: Array("JFIF".utf8)) || body.starts(with: Array("JFXX".utf8)) else { return false }
                case 0xE2: guard body.starts(with: Array("ICC_PROFILE".utf8)) else { return false }
                case 0xEE: guard body.starts(with: Array("Adobe".utf8)) else { return false }
                case 0xE1, 0xE3...0xED, 0xEF, 0xFE: return false
                default: break
                }
                offset += 2 + length
            }
            return false
        }
    }

    /// A baseline JPEG of the raster (4:2:0, no metadata).
    public static func encodeJPEG(_ image: RasterImage, quality: Int) -> [UInt8] { JPEGEncoder.encode(image, quality: quality) }

    /// A baseline JPEG's pixels as stored (not turned by its orientation); nil for a kind not
    /// decoded here.
    public static func decodeJPEG(_ bytes: [UInt8]) throws(ImageFileError) -> RasterImage? {
        try JPEGDecoder.decode(bytes)?.image
    }

    /// Scaled down (never up) to fit a `side` × `side` square, each pixel the average of the
    /// source pixels it covers.
    public static func scale(_ image: RasterImage, fitting side: Int) -> RasterImage {
        let longest = max(image.width, image.height)
        guard longest > side else { return image }
        let width = max(1, image.width * side / longest)
        let height = max(1, image.height * side / longest)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // Column spans once, then each output row sums its source rows.
        let columns = (0..<width).map { x in (x * image.width / width, max(x * image.width / width + 1, (x + 1) * image.width / width)) }
        var sums = [Int](repeating: 0, count: width * 4)
        for y in 0..<height {
            let top = y * image.height / height
            let bottom = max(top + 1, (y + 1) * image.height / height)
            for i in sums.indices { sums[i] = 0 }
            for row in top..<bottom {
                let base = row * image.width * 4
                for (x, span) in columns.enumerated() {
                    var i = base + span.0 * 4
                    let end = base + span.1 * 4
                    while i < end {
                        sums[x * 4] += Int(image.pixels[i])
                        sums[x * 4 + 1] += Int(image.pixels[i + 1])
                        sums[x * 4 + 2] += Int(image.pixels[i + 2])
                        sums[x * 4 + 3] += Int(image.pixels[i + 3])
                        i += 4
                    }
                }
            }
            for (x, span) in columns.enumerated() {
                let count = (span.1 - span.0) * (bottom - top)
                for c in 0..<4 { out[(y * width + x) * 4 + c] = UInt8((sums[x * 4 + c] + count / 2) / count) }
            }
        }
        return RasterImage(width: width, height: height, pixels: out)
    }

    /// Turned as EXIF orientation `orientation` (1–8) says the camera held it.
    public static func orient(_ image: RasterImage, _ orientation: Int) -> RasterImage {
        guard (2...8).contains(orientation) else { return image }
        let transposed = orientation >= 5
        let width = transposed ? image.height : image.width
        let height = transposed ? image.width : image.height
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (u, v): (Int, Int) =
                    switch orientation {
                    case 2: (image.width - 1 - x, y)
                    case 3: (image.width - 1 - x, image.height - 1 - y)
                    case 4: (x, image.height - 1 - y)
                    case 5: (y, x)
                    case 6: (image.height - 1 - y, x)
                    case 7: (image.height - 1 - y, image.width - 1 - x)
                    default: (y, image.width - 1 - x)  // 8
                    }
                let from = (y * image.width + x) * 4
                let to = (v * width + u) * 4
                out[to] = image.pixels[from]
                out[to + 1] = image.pixels[from + 1]
                out[to + 2] = image.pixels[from + 2]
                out[to + 3] = image.pixels[from + 3]
            }
        }
        return RasterImage(width: width, height: height, pixels: out)
    }
}

// MARK: - PNG

public enum PNGDecoder {
    /// A PNG's pixels (every color type and bit depth, interlaced or not), its transparency
    /// kept. The image data is inflated only up to the size its header implies.
    public static func decode(_ bytes: [UInt8]) throws(ImageFileError) -> RasterImage {
        var offset = 8
        var header: (width: Int, height: Int, depth: Int, color: Int, interlace: Int)?
        var palette = [UInt8]()
        var transparency = [UInt8]()
        var data = [UInt8]()
        while offset + 12 <= bytes.count {
            let length = Int(u32(bytes, offset))
            let start = offset + 8
            guard length <= bytes.count - start - 4 else { throw .truncated(offset: offset) }
            let type = String(decoding: bytes[(offset + 4)..<start], as: UTF8.self)
            let body = bytes[start..<(start + length)]
            switch type {
            case "IHDR":
                guard length == 13 else { throw .malformed(offset: offset, "IHDR is 13 bytes") }
                header = (Int(u32(bytes, start)), Int(u32(bytes, start + 4)), Int(bytes[start + 8]), Int(bytes[start + 9]), Int(bytes[start + 12]))
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT": data += body
            default: break
            }
            offset = start + length + 4
            if type == "IEND" { break }
        }
        guard let h = header else { throw .malformed(offset: 8, "no IHDR") }
        let channels: Int
        switch (h.color, h.depth) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (2, 8), (2, 16): channels = 3
        case (4, 8), (4, 16): channels = 2
        case (6, 8), (6, 16): channels = 4
        default: throw .malformed(offset: 8, "color type \(h.color) with \(h.depth)-bit samples is not a PNG's")
        }
        guard h.color != 3 || !palette.isEmpty else { throw .malformed(offset: 8, "a palette image without PLTE") }
        let bitsPerPixel = channels * h.depth
        let bytesPerPixel = max(1, bitsPerPixel / 8)
        let passes: [(x: Int, y: Int, dx: Int, dy: Int)] =
            h.interlace == 1
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        func size(_ p: (x: Int, y: Int, dx: Int, dy: Int)) -> (Int, Int) {
            ((h.width - p.x + p.dx - 1) / p.dx, (h.height - p.y + p.dy - 1) / p.dy)
        }
        let expected = passes.reduce(0) { total, p in
            let (w, rows) = size(p)
            return w == 0 || rows == 0 ? total : total + rows * (1 + (w * bitsPerPixel + 7) / 8)
        }
        let raw = try inflate(data, expected: expected)
        var image = RasterImage(width: h.width, height: h.height, pixels: [UInt8](repeating: 0, count: h.width * h.height * 4))
        var position = 0
        for pass in passes {
            let (w, rows) = size(pass)
            guard w > 0, rows > 0 else { continue }
            let rowBytes = (w * bitsPerPixel + 7) / 8
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var current = [UInt8](repeating: 0, count: rowBytes)
            for row in 0..<rows {
                let filter = raw[position]
                for i in 0..<rowBytes { current[i] = raw[position + 1 + i] }
                position += 1 + rowBytes
                try unfilter(filter, &current, previous, bytesPerPixel)
                for column in 0..<w {
                    let x = pass.x + column * pass.dx
                    let y = pass.y + row * pass.dy
                    let rgba = pixel(current, column, h.depth, h.color, palette, transparency)
                    let at = (y * h.width + x) * 4
                    image.pixels[at] = rgba.0
                    image.pixels[at + 1] = rgba.1
                    image.pixels[at + 2] = rgba.2
                    image.pixels[at + 3] = rgba.3
                }
                swap(&previous, &current)
            }
        }
        return image
    }

    static func unfilter(_ filter: UInt8, _ row: inout [UInt8], _ above: [UInt8], _ bpp: Int) throws(ImageFileError) {
        switch filter {
        case 0: break
        case 1: for i in bpp..<max(bpp, row.count) { row[i] = row[i] &+ row[i - bpp] }
        case 2: for i in 0..<row.count { row[i] = row[i] &+ above[i] }
        case 3:
            for i in 0..<row.count {
                let left = i >= bpp ? Int(row[i - bpp]) : 0
                row[i] = row[i] &+ UInt8((left + Int(above[i])) / 2)
            }
        case 4:
            for i in 0..<row.count {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = Int(above[i])
                let c = i >= bpp ? Int(above[i - bpp]) : 0
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                row[i] = row[i] &+ UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
            }
        default: throw .malformed(offset: 0, "filter type \(filter) is not a PNG's")
        }
    }

    /// Pixel `x` of an unfiltered row as RGBA.
    static func pixel(_ row: [UInt8], _ x: Int, _ depth: Int, _ color: Int, _ palette: [UInt8], _ tRNS: [UInt8]) -> (UInt8, UInt8, UInt8, UInt8) {
        func sample(_ index: Int) -> Int {
            switch depth {
            case 16: Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
            case 8: Int(row[index])
            default:
                Int(row[index * depth / 8] >> (8 - depth - (index * depth) % 8)) & (1 << depth - 1)
            }
        }
        func byte(_ value: Int) -> UInt8 {
            switch depth {
            case 16: UInt8(value >> 8)
            case 8: UInt8(value)
            default: UInt8(value * 255 / (1 << depth - 1))
            }
        }
        switch color {
        case 0:
            let g = sample(x)
            let alpha: UInt8 = tRNS.count >= 2 && (Int(tRNS[0]) << 8 | Int(tRNS[1])) == g ? 0 : 255
            return (byte(g), byte(g), byte(g), alpha)
        case 2:
            let (r, g, b) = (sample(x * 3), sample(x * 3 + 1), sample(x * 3 + 2))
            var alpha: UInt8 = 255
            if tRNS.count >= 6, (Int(tRNS[0]) << 8 | Int(tRNS[1])) == r, (Int(tRNS[2]) << 8 | Int(tRNS[3])) == g, (Int(tRNS[4]) << 8 | Int(tRNS[5])) == b {
                alpha = 0
            }
            return (byte(r), byte(g), byte(b), alpha)
        case 3:
            let index = sample(x)
            guard index * 3 + 2 < palette.count else { return (0, 0, 0, 255) }
            return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], index < tRNS.count ? tRNS[index] : 255)
        case 4:
            let g = byte(sample(x * 2))
            return (g, g, g, byte(sample(x * 2 + 1)))
        default:
            return (byte(sample(x * 4)), byte(sample(x * 4 + 1)), byte(sample(x * 4 + 2)), byte(sample(x * 4 + 3)))
        }
    }

    /// zlib's stream inflated to exactly `expected` bytes (never more: a bomb stops there).
    static func inflate(_ data: [UInt8], expected: Int) throws(ImageFileError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .malformed(offset: 0, "zlib could not start") }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: expected)
        var input = data
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            out.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return HeartworkZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_out == 0) || (status == Z_OK && stream.avail_out == 0) else {
            throw .malformed(offset: 0, "the image data is cut short or damaged (zlib \(status))")
        }
        guard stream.avail_out == 0 else { throw .malformed(offset: 0, "the image data holds less than its size") }
        return out
    }
}

public enum PNGEncoder {
    /// RGBA, 8 bits a sample, each row filtered by Up, deflated.
    public static func encode(_ image: RasterImage) -> [UInt8] {
        let rowBytes = image.width * 4
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * image.height)
        for y in 0..<image.height {
            raw.append(2)
            let base = y * rowBytes
            for i in 0..<rowBytes { raw.append(image.pixels[base + i] &- (y > 0 ? image.pixels[base - rowBytes + i] : 0)) }
        }
        var bound = compressBound(UInt(raw.count))
        var deflated = [UInt8](repeating: 0, count: Int(bound))
        _ = deflated.withUnsafeMutableBufferPointer { out in raw.withUnsafeBufferPointer { compress2(out.baseAddress, &bound, $0.baseAddress, UInt($0.count), 6) } }
        deflated.removeSubrange(Int(bound)...)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            out += be32(UInt32(body.count)) + typed + be32(CRC32.checksum(typed[...]))
        }
        chunk("IHDR", be32(UInt32(image.width)) + be32(UInt32(image.height)) + [8, 6, 0, 0, 0])
        chunk("IDAT", deflated)
        chunk("IEND", [])
        return out
    }
}

func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
}

func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
