import Foundation
import HeartworkFormats
import Testing

/// Issue 40: photos re-encoded to a bounded size. The files were written by Pillow 13 and the
/// expected pixels are what Pillow decodes from them (Tests/Reference/make_photo_fixtures.py):
/// PNG exactly, JPEG within the rounding two IDCTs may differ by.
@Suite("Photo codec")
struct PhotoCodecTests {
    static let directory = Bundle.module.url(forResource: "photos", withExtension: nil, subdirectory: "Resources")!

    static func file(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: directory.appendingPathComponent(name))) }

    nonisolated(unsafe) static let expected: [String: [String: Any]] = {
        let data = try? Data(contentsOf: directory.appendingPathComponent("expected.json"))
        return (data.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: [String: Any]]) ?? [:]
    }()

    /// The largest and the mean difference of a channel from what Pillow decoded, over the grid.
    static func differences(_ image: RasterImage, _ name: String) throws -> (worst: Int, mean: Double) {
        let entry = try #require(expected[name])
        #expect(image.width == entry["width"] as? Int && image.height == entry["height"] as? Int, "\(name)")
        var worst = 0
        var total = 0
        var count = 0
        for point in try #require(entry["pixels"] as? [[Any]]) {
            guard let x = point[0] as? Int, let y = point[1] as? Int, let rgba = point[2] as? [Int] else { continue }
            let (r, g, b, a) = image[x, y]
            for (ours, theirs) in zip([r, g, b, a], rgba) {
                worst = max(worst, abs(Int(ours) - theirs))
                total += abs(Int(ours) - theirs)
                count += 1
            }
        }
        return (worst, Double(total) / Double(max(1, count)))
    }

    @Test(arguments: ["rgba.png", "interlaced.png", "palette.png", "gray16.png"])
    func pngsDecodeAsPillowDecodesThem(_ name: String) throws {
        #expect(try Self.differences(try PNGDecoder.decode(try Self.file(name)), name).worst == 0)
    }

    /// Pillow's libjpeg rounds its integer IDCT otherwise than our floating-point one (a few
    /// levels), and smooths 4:2:0 chroma where we repeat it (more, at a colour's edge only).
    @Test(arguments: [("baseline-444.jpg", 6), ("gray.jpg", 6), ("baseline-exif6.jpg", 64)])
    func baselineJPEGsDecodeAsPillowDecodesThem(_ name: String, _ worst: Int) throws {
        let image = try #require(try PhotoCodec.decodeJPEG(try Self.file(name)))
        let (found, mean) = try Self.differences(image, name)
        #expect(found <= worst && mean <= 3, "\(name): worst \(found), mean \(mean)")
    }

    /// EXIF orientation 6 (the phone held on its side): the re-encoded photo is upright — 64 wide,
    /// 96 high — and carries no EXIF (no camera, no position).
    @Test func anOrientedPhotoComesOutUprightWithoutItsMetadata() throws {
        let photo = try Self.file("baseline-exif6.jpg")
        #expect(photo.windowContains(Array("Probe Camera".utf8)))
        let out = try #require(try PhotoCodec.reencode(photo, fitting: 1024, maximumPixels: 1 << 24))
        #expect(out.width == 64 && out.height == 96)
        #expect(!out.bytes.windowContains(Array("Exif".utf8)) && !out.bytes.windowContains(Array("Probe Camera".utf8)))
        let file = try ImageFile(out.bytes)
        #expect(file.width == 64 && file.height == 96 && file.kind == .jpeg)
        // The photo's top-left pixel is now its top-right (turned 90° clockwise).
        let raw = try #require(try PhotoCodec.decodeJPEG(photo))
        let upright = try #require(try PhotoCodec.decodeJPEG(out.bytes))
        let before = raw[0, 0]
        let after = upright[63, 0]
        let red = abs(Int(before.0) - Int(after.0))
        let green = abs(Int(before.1) - Int(after.1))
        let blue = abs(Int(before.2) - Int(after.2))
        #expect(red + green + blue < 30, "\(before) vs \(after)")
    }

    /// A large photo comes out no larger than the side asked for, its proportions kept; its
    /// transparency too, when it is a PNG.
    @Test func aLargePhotoIsScaledDownAndKeepsItsTransparency() throws {
        var pixels = [UInt8]()
        for y in 0..<1500 {
            for x in 0..<3000 { pixels += [UInt8(x % 256), UInt8(y % 256), 90, x < 1500 ? 0 : 255] }
        }
        let big = PNGEncoder.encode(RasterImage(width: 3000, height: 1500, pixels: pixels))
        let out = try #require(try PhotoCodec.reencode(big, fitting: 1024, maximumPixels: 1 << 24))
        #expect(out.kind == .png && out.width == 1024 && out.height == 512)
        let small = try PNGDecoder.decode(out.bytes)
        #expect(small[10, 10].3 == 0 && small[1000, 10].3 == 255)
        #expect(out.bytes.count < big.count)
        #expect(throws: ImageFileError.self) { try PhotoCodec.reencode(big, fitting: 1024, maximumPixels: 1_000_000) }
    }

    /// A format not decoded here (progressive JPEG) is left to the caller as it is; a photo that
    /// fits and holds nothing but its image is kept byte for byte (no generation lost).
    @Test func aProgressiveJPEGIsNotReencodedAndAPlainSmallOneIsKept() throws {
        let progressive = try Self.file("progressive.jpg")
        #expect(try PhotoCodec.reencode(progressive, fitting: 32, maximumPixels: 1 << 24) == nil)
        #expect(try PhotoCodec.reencode(progressive, fitting: 1024, maximumPixels: 1 << 24)?.bytes == progressive)
        let plain = try Self.file("baseline-444.jpg")
        #expect(try PhotoCodec.reencode(plain, fitting: 1024, maximumPixels: 1 << 24)?.bytes == plain)
        #expect(try PhotoCodec.reencode(plain, fitting: 48, maximumPixels: 1 << 24).map { ($0.width, $0.height) } ?? (0, 0) == (48, 32))
    }
}

extension Array where Element == UInt8 {
    func windowContains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
