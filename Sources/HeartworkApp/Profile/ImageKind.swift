/// Image types recognised by their first bytes, not by file name or declared type.
enum ImageKind {
    static func detect(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && bytes.count > 24 { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) && bytes.count > 4 { return "image/jpeg" }
        return nil
    }
}
