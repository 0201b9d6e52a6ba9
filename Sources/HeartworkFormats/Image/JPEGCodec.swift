import Foundation

/// Baseline (sequential, Huffman, 8-bit) JPEG: what phone cameras and most editors write. A
/// progressive, lossless, 12-bit or arithmetic-coded file, or one of four components (CMYK),
/// is not decoded (`decode` answers nil).
enum JPEGDecoder {
    struct Decoded {
        let image: RasterImage
        /// EXIF orientation (1 upright … 8), 1 when the file has none.
        let orientation: Int
    }

    private struct Component {
        let id: UInt8
        let h: Int
        let v: Int
        let table: Int
        var dcTable = 0
        var acTable = 0
        var blocksPerLine = 0
        var blocksPerColumn = 0
        var plane = [UInt8]()
    }

    private struct Huffman {
        /// (code length, code) → symbol, by the canonical construction (ITU T.81 Annex C).
        var lookup = [Int: UInt8]()
        var maxCode = [Int](repeating: -1, count: 17)

        init(counts: [Int], symbols: [UInt8]) {
            var code = 0
            var k = 0
            for length in 1...16 {
                for _ in 0..<counts[length - 1] {
                    lookup[length << 16 | code] = symbols[k]
                    k += 1
                    code += 1
                }
                maxCode[length] = code - 1
                code <<= 1
            }
        }

        init() {}
    }

    private struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var buffer = 0
        var count = 0
        var hitMarker = false

        mutating func bit() -> Int {
            if count == 0 {
                var byte = 0
                if !hitMarker, position < bytes.count {
                    byte = Int(bytes[position])
                    if byte == 0xFF {
                        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
                        if next == 0x00 {
                            position += 2
                        } else {
                            hitMarker = true
                            byte = 0
                        }
                    } else {
                        position += 1
                    }
                }
                buffer = byte
                count = 8
            }
            count -= 1
            return buffer >> count & 1
        }

        mutating func bits(_ n: Int) -> Int {
            var value = 0
            for _ in 0..<n { value = value << 1 | bit() }
            return value
        }

        mutating func decode(_ table: Huffman) throws(ImageFileError) -> UInt8 {
            var code = 0
            for length in 1...16 {
                code = code << 1 | bit()
                if code <= table.maxCode[length], let symbol = table.lookup[length << 16 | code] { return symbol }
            }
            throw .malformed(offset: position, "a Huffman code not in its table")
        }

        /// Past a restart marker (RSTn): the bits start afresh.
        mutating func restart() {
            count = 0
            hitMarker = false
            while position + 1 < bytes.count, bytes[position] == 0xFF, (0xD0...0xD7).contains(bytes[position + 1]) { position += 2 }
        }
    }

    static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// cos((2x + 1) u π / 16) × C(u) / 2, for the inverse DCT.
    static let cosines: [Float] = (0..<64).map { index in
        let (x, u) = (index / 8, index % 8)
        let c: Float = u == 0 ? Float(1 / 2.0.squareRoot()) : 1
        return c * Float(cos(Double(2 * x + 1) * Double(u) * Double.pi / 16)) / 2
    }

    static func decode(_ bytes: [UInt8]) throws(ImageFileError) -> Decoded? {
        var offset = 2
        var quantization = [[Int]](repeating: [Int](repeating: 1, count: 64), count: 4)
        var dc = [Huffman](repeating: Huffman(), count: 4)
        var ac = [Huffman](repeating: Huffman(), count: 4)
        var components = [Component]()
        var width = 0
        var height = 0
        var restartInterval = 0
        var orientation = 1
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw .malformed(offset: offset, "expected a marker") }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { throw .truncated(offset: offset) }
            let segment = Array(bytes[start..<end])
            switch marker {
            case 0xE1:
                if let found = exifOrientation(segment) { orientation = found }
            case 0xDB:
                var i = 0
                while i < segment.count {
                    let precision = Int(segment[i] >> 4)
                    let id = Int(segment[i] & 3)
                    i += 1
                    var table = [Int](repeating: 1, count: 64)
                    for k in 0..<64 {
                        guard i < segment.count else { throw .truncated(offset: offset) }
                        if precision == 0 {
                            table[zigzag[k]] = Int(segment[i])
                            i += 1
                        } else {
                            guard i + 1 < segment.count else { throw .truncated(offset: offset) }
                            table[zigzag[k]] = Int(segment[i]) << 8 | Int(segment[i + 1])
                            i += 2
                        }
                    }
                    quantization[id] = table
                }
            case 0xC0, 0xC1:
                guard segment.count >= 6, segment[0] == 8 else { return nil }
                height = Int(segment[1]) << 8 | Int(segment[2])
                width = Int(segment[3]) << 8 | Int(segment[4])
                let count = Int(segment[5])
                guard count == 1 || count == 3, segment.count >= 6 + count * 3, width > 0, height > 0 else { return nil }
                for c in 0..<count {
                    let at = 6 + c * 3
                    // One component is one scan of single blocks, whatever its sampling factors say.
                    let h = count == 1 ? 1 : Int(segment[at + 1] >> 4)
                    let v = count == 1 ? 1 : Int(segment[at + 1] & 15)
                    guard (1...4).contains(h), (1...4).contains(v) else { throw .malformed(offset: offset, "a sampling factor out of range") }
                    components.append(Component(id: segment[at], h: h, v: v, table: Int(segment[at + 2] & 3)))
                }
            case 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                return nil  // progressive, lossless, hierarchical or arithmetic
            case 0xC4:
                var i = 0
                while i + 17 <= segment.count {
                    let kind = segment[i] >> 4
                    let id = Int(segment[i] & 3)
                    let counts = (1...16).map { Int(segment[i + $0]) }
                    let total = counts.reduce(0, +)
                    guard i + 17 + total <= segment.count else { throw .truncated(offset: offset) }
                    let table = Huffman(counts: counts, symbols: Array(segment[(i + 17)..<(i + 17 + total)]))
                    if kind == 0 { dc[id] = table } else { ac[id] = table }
                    i += 17 + total
                }
            case 0xDD:
                guard segment.count >= 2 else { throw .truncated(offset: offset) }
                restartInterval = Int(segment[0]) << 8 | Int(segment[1])
            case 0xDA:
                guard !components.isEmpty, segment.count >= 1 else { throw .malformed(offset: offset, "a scan before its frame") }
                let count = Int(segment[0])
                guard count == components.count, segment.count >= 1 + count * 2 else { return nil }  // one scan holds every component
                for c in 0..<count {
                    guard let index = components.firstIndex(where: { $0.id == segment[1 + c * 2] }) else {
                        throw .malformed(offset: offset, "a scan of a component the frame does not have")
                    }
                    components[index].dcTable = Int(segment[2 + c * 2] >> 4 & 3)
                    components[index].acTable = Int(segment[2 + c * 2] & 3)
                }
                try decodeScan(bytes, at: end, width: width, height: height, &components, quantization, dc, ac, restartInterval)
                return Decoded(image: rgba(components, width: width, height: height), orientation: orientation)
            default:
                break
            }
            offset = end
        }
        throw .truncated(offset: offset)
    }

    private static func decodeScan(
        _ bytes: [UInt8], at start: Int, width: Int, height: Int, _ components: inout [Component], _ quantization: [[Int]], _ dc: [Huffman],
        _ ac: [Huffman], _ restartInterval: Int
    ) throws(ImageFileError) {
        let hMax = components.map(\.h).max() ?? 1
        let vMax = components.map(\.v).max() ?? 1
        let mcusX = (width + 8 * hMax - 1) / (8 * hMax)
        let mcusY = (height + 8 * vMax - 1) / (8 * vMax)
        for i in components.indices {
            components[i].blocksPerLine = mcusX * components[i].h
            components[i].blocksPerColumn = mcusY * components[i].v
            components[i].plane = [UInt8](repeating: 0, count: components[i].blocksPerLine * 8 * components[i].blocksPerColumn * 8)
        }
        var reader = BitReader(bytes: bytes, position: start)
        var predictors = [Int](repeating: 0, count: components.count)
        var coefficients = [Int](repeating: 0, count: 64)
        var block = [Float](repeating: 0, count: 64)
        var mcu = 0
        for my in 0..<mcusY {
            for mx in 0..<mcusX {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    reader.restart()
                    for i in predictors.indices { predictors[i] = 0 }
                }
                mcu += 1
                for c in components.indices {
                    let component = components[c]
                    for by in 0..<component.v {
                        for bx in 0..<component.h {
                            for k in 0..<64 { coefficients[k] = 0 }
                            let size = Int(try reader.decode(dc[component.dcTable]))
                            guard size <= 11 else { throw .malformed(offset: reader.position, "a DC difference too large") }
                            predictors[c] += extend(reader.bits(size), size)
                            coefficients[0] = predictors[c] * quantization[component.table][0]
                            var k = 1
                            while k < 64 {
                                let symbol = Int(try reader.decode(ac[component.acTable]))
                                let run = symbol >> 4
                                let size = symbol & 15
                                if size == 0 {
                                    if run == 15 {
                                        k += 16
                                        continue
                                    }
                                    break
                                }
                                k += run
                                guard k < 64 else { break }
                                coefficients[zigzag[k]] = extend(reader.bits(size), size) * quantization[component.table][zigzag[k]]
                                k += 1
                            }
                            inverseDCT(coefficients, into: &block)
                            let blockX = (mx * component.h + bx) * 8
                            let blockY = (my * component.v + by) * 8
                            let stride = component.blocksPerLine * 8
                            for y in 0..<8 {
                                for x in 0..<8 {
                                    let value = block[y * 8 + x] + 128
                                    components[c].plane[(blockY + y) * stride + blockX + x] = UInt8(max(0, min(255, value.rounded())))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static func extend(_ value: Int, _ size: Int) -> Int {
        size == 0 ? 0 : (value < 1 << (size - 1) ? value - (1 << size) + 1 : value)
    }

    /// The separable inverse DCT of one block (natural order in, pixels − 128 out).
    static func inverseDCT(_ input: [Int], into output: inout [Float]) {
        var rows = [Float](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                var sum: Float = 0
                for u in 0..<8 { sum += cosines[x * 8 + u] * Float(input[y * 8 + u]) }
                rows[y * 8 + x] = sum
            }
        }
        for x in 0..<8 {
            for y in 0..<8 {
                var sum: Float = 0
                for v in 0..<8 { sum += cosines[y * 8 + v] * rows[v * 8 + x] }
                output[y * 8 + x] = sum
            }
        }
    }

    /// Each component's plane sampled up to the frame's size, YCbCr → RGB (JFIF).
    private static func rgba(_ components: [Component], width: Int, height: Int) -> RasterImage {
        let hMax = components.map(\.h).max() ?? 1
        let vMax = components.map(\.v).max() ?? 1
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        func sample(_ c: Component, _ x: Int, _ y: Int) -> Float {
            Float(c.plane[(y * c.v / vMax) * c.blocksPerLine * 8 + x * c.h / hMax])
        }
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                if components.count == 1 {
                    let g = components[0].plane[y * components[0].blocksPerLine * 8 + x]
                    (pixels[at], pixels[at + 1], pixels[at + 2]) = (g, g, g)
                    continue
                }
                let luma = sample(components[0], x, y)
                let cb = sample(components[1], x, y) - 128
                let cr = sample(components[2], x, y) - 128
                pixels[at] = clamp(luma + 1.402 * cr)
                pixels[at + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr)
                pixels[at + 2] = clamp(luma + 1.772 * cb)
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    static func clamp(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

    /// The orientation tag (0x0112) of an APP1 "Exif" segment's first directory.
    static func exifOrientation(_ segment: [UInt8]) -> Int? {
        guard segment.count >= 14, segment.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(segment[6...])
        let little = tiff.starts(with: [0x49, 0x49])
        guard little || tiff.starts(with: [0x4D, 0x4D]) else { return nil }
        func u16(_ at: Int) -> Int? {
            guard at + 1 < tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard let directory = u32(4), let entries = u16(directory), entries < 1000 else { return nil }
        for index in 0..<entries {
            let entry = directory + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, let value = u16(entry + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}

/// Baseline JPEG, 4:2:0, the standard tables of ITU T.81 Annex K scaled to `quality`, nothing
/// but the image (no EXIF, no GPS).
enum JPEGEncoder {
    static let luminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    static let chrominance: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    ]
    // Annex K.3's tables: counts by length, then symbols.
    static let dcLuminance = (counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: (0...11).map { UInt8($0) })
    static let dcChrominance = (counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: (0...11).map { UInt8($0) })
    static let acLuminance = (
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
        symbols: [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08,
            0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
            0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
            0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
            0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6,
            0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
            0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ] as [UInt8]
    )
    static let acChrominance = (
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
        symbols: [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91,
            0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0, 0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
            0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
            0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
            0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4,
            0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
            0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ] as [UInt8]
    )

    /// (code, length) by symbol.
    static func codes(_ table: (counts: [Int], symbols: [UInt8])) -> [Int: (Int, Int)] {
        var result = [Int: (Int, Int)]()
        var code = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<table.counts[length - 1] {
                result[Int(table.symbols[k])] = (code, length)
                k += 1
                code += 1
            }
            code <<= 1
        }
        return result
    }

    struct BitWriter {
        var bytes = [UInt8]()
        var buffer = 0
        var count = 0

        mutating func write(_ value: Int, _ length: Int) {
            guard length > 0 else { return }
            buffer = buffer << length | (value & (1 << length - 1))
            count += length
            while count >= 8 {
                let byte = UInt8(buffer >> (count - 8) & 0xFF)
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
                count -= 8
            }
            buffer &= (1 << count) - 1
        }

        mutating func flush() {
            if count > 0 { write((1 << (8 - count)) - 1, 8 - count) }
        }
    }

    static func encode(_ image: RasterImage, quality: Int) -> [UInt8] {
        let scaleFactor = quality < 50 ? 5000 / max(1, quality) : 200 - quality * 2
        func scaled(_ table: [Int]) -> [Int] { table.map { max(1, min(255, ($0 * scaleFactor + 50) / 100)) } }
        let qY = scaled(luminance)
        let qC = scaled(chrominance)
        let (dcY, acY, dcC, acC) = (codes(dcLuminance), codes(acLuminance), codes(dcChrominance), codes(acChrominance))
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            out += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        segment(0xDB, [0] + JPEGDecoder.zigzag.map { UInt8(qY[$0]) } + [1] + JPEGDecoder.zigzag.map { UInt8(qC[$0]) })
        let (w, h) = (image.width, image.height)
        segment(0xC0, [8, UInt8(h >> 8), UInt8(h & 0xFF), UInt8(w >> 8), UInt8(w & 0xFF), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        for (kind, table) in [(0x00, dcLuminance), (0x10, acLuminance), (0x01, dcChrominance), (0x11, acChrominance)] {
            segment(0xC4, [UInt8(kind)] + table.counts.map { UInt8($0) } + table.symbols)
        }
        segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])
        // Planes at full size (Y) and averaged 2 × 2 (Cb, Cr), edges repeated.
        func pixel(_ x: Int, _ y: Int) -> (Float, Float, Float) {
            let at = (min(y, h - 1) * w + min(x, w - 1)) * 4
            return (Float(image.pixels[at]), Float(image.pixels[at + 1]), Float(image.pixels[at + 2]))
        }
        var writer = BitWriter()
        var predictors = [0, 0, 0]
        var block = [Float](repeating: 0, count: 64)
        func emit(_ block: [Float], _ q: [Int], _ dc: [Int: (Int, Int)], _ ac: [Int: (Int, Int)], _ component: Int) {
            // The separable forward DCT: rows, then columns.
            var rows = [Float](repeating: 0, count: 64)
            for y in 0..<8 {
                for u in 0..<8 {
                    var sum: Float = 0
                    for x in 0..<8 { sum += block[y * 8 + x] * JPEGDecoder.cosines[x * 8 + u] }
                    rows[y * 8 + u] = sum
                }
            }
            var coefficients = [Int](repeating: 0, count: 64)
            for u in 0..<8 {
                for v in 0..<8 {
                    var sum: Float = 0
                    for y in 0..<8 { sum += rows[y * 8 + u] * JPEGDecoder.cosines[y * 8 + v] }
                    coefficients[v * 8 + u] = Int((sum / Float(q[v * 8 + u])).rounded())
                }
            }
            func magnitude(_ value: Int) -> (bits: Int, size: Int) {
                var size = 0
                var absolute = abs(value)
                while absolute > 0 {
                    size += 1
                    absolute >>= 1
                }
                return (value < 0 ? value + (1 << size) - 1 : value, size)
            }
            let difference = coefficients[0] - predictors[component]
            predictors[component] = coefficients[0]
            let (bits, size) = magnitude(difference)
            if let code = dc[size] { writer.write(code.0, code.1) }
            writer.write(bits, size)
            var run = 0
            for k in 1..<64 {
                let value = coefficients[JPEGDecoder.zigzag[k]]
                if value == 0 {
                    run += 1
                    continue
                }
                while run > 15 {
                    if let code = ac[0xF0] { writer.write(code.0, code.1) }
                    run -= 16
                }
                let (bits, size) = magnitude(max(-1023, min(1023, value)))
                if let code = ac[run << 4 | size] { writer.write(code.0, code.1) }
                writer.write(bits, size)
                run = 0
            }
            if run > 0, let code = ac[0x00] { writer.write(code.0, code.1) }
        }
        for my in stride(from: 0, to: h, by: 16) {
            for mx in stride(from: 0, to: w, by: 16) {
                for (bx, by) in [(0, 0), (8, 0), (0, 8), (8, 8)] {
                    for y in 0..<8 {
                        for x in 0..<8 {
                            let (r, g, b) = pixel(mx + bx + x, my + by + y)
                            block[y * 8 + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                        }
                    }
                    emit(block, qY, dcY, acY, 0)
                }
                for component in 1...2 {
                    for y in 0..<8 {
                        for x in 0..<8 {
                            var sum: Float = 0
                            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                                let (r, g, b) = pixel(mx + x * 2 + dx, my + y * 2 + dy)
                                sum += component == 1 ? -0.168736 * r - 0.331264 * g + 0.5 * b : 0.5 * r - 0.418688 * g - 0.081312 * b
                            }
                            block[y * 8 + x] = sum / 4
                        }
                    }
                    emit(block, qC, dcC, acC, component)
                }
            }
        }
        writer.flush()
        out += writer.bytes
        out += [0xFF, 0xD9]
        return out
    }
}
