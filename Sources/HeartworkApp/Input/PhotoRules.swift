import HeartworkFormats

/// What a photo must be — a profile's, a player's, a team's — checked the one way: a whole
/// PNG or JPEG by content, of at most `maximumPixels` (issue 40: a 20,000 × 20,000 PNG of 48 kB
/// was accepted, and every friend's and coach's browser that showed it decoded 1.6 GB), then
/// re-encoded to at most `storedSide` pixels a side, upright and without its metadata (a
/// phone's EXIF holds where it was taken) — `PhotoCodec`, on a thread of its own. A kind the
/// codec does not decode (a progressive JPEG) is kept as sent, within the pixel bound. The
/// pages send a copy re-encoded in the browser already.
enum PhotoRules {
    /// 16.8 megapixels (4096 × 4096): a 12-megapixel phone photo fits; a 48-megapixel one is
    /// refused with the way out.
    static let maximumPixels = 4096 * 4096
    /// The longest side a photo is stored at (and the pages re-encode a chosen one to).
    static let storedSide = 1024

    /// The photo as it is stored: its content type and bytes.
    static func stored(_ bytes: [UInt8], of whose: String) async throws -> (contentType: String, data: [UInt8]) {
        let image = try checked(bytes, of: whose)
        let reencoded: PhotoCodec.Reencoded?
        do {
            reencoded = try await Blocking.run { () throws(ImageFileError) in
                try PhotoCodec.reencode(bytes, fitting: storedSide, maximumPixels: maximumPixels)
            }
        } catch {
            throw AppError.invalid("\(whose) photo cannot be read to its end: \(error)", field: "body")
        }
        guard let reencoded else { return (image.kind.rawValue, bytes) }
        return (reencoded.kind.rawValue, reencoded.bytes)
    }

    static func checked(_ bytes: [UInt8], of whose: String) throws -> ImageFile {
        let image: ImageFile
        do {
            image = try ImageFile(bytes)
        } catch {
            throw AppError.invalid("\(whose) photo must be a whole PNG or JPEG image (checked by content): \(error)", field: "body")
        }
        guard image.width * image.height <= maximumPixels else {
            throw AppError.invalid(
                "\(whose) photo is \(image.width) × \(image.height) pixels; at most \(maximumPixels / 1_000_000) megapixels (4096 × 4096) are taken: send a smaller copy",
                field: "body")
        }
        return image
    }
}
