import HeartworkFormats

/// What a photo must be — a profile's, a player's, a team's — checked the one way: a whole
/// PNG or JPEG by content, of at most `maximumPixels` (issue 40: a 20,000 × 20,000 PNG of 48 kB
/// was accepted, and every friend's and coach's browser that showed it decoded 1.6 GB). The
/// pages send a copy of at most `pageSide` pixels a side, re-encoded in the browser.
enum PhotoRules {
    /// 16.8 megapixels (4096 × 4096): a 12-megapixel phone photo fits; a 48-megapixel one is
    /// refused with the way out.
    static let maximumPixels = 4096 * 4096
    /// The longest side the pages re-encode a chosen photo to before sending it.
    static let pageSide = 1024

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
