import Foundation
import HeartworkApp
import Hummingbird

/// Where to go after signing in: a path on this site, or the start page. Browsers drop tabs
/// and line breaks from URLs and read a backslash as a slash, so `/\t/evil.example` would be
/// `//evil.example` (another site) to them: anything with a control character, white space or
/// a backslash, or starting with two slashes, goes to the start page.
enum SafeRedirect {
    static func next(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), next.utf8.count <= 2000 else { return "/" }
        for scalar in next.unicodeScalars where scalar.value <= 0x20 || scalar.value == 0x7F || scalar == "\\" || scalar.properties.isWhitespace {
            return "/"
        }
        // Percent-encoded forms of the same tricks (/%09/, /%5C) are refused too.
        if let decoded = next.removingPercentEncoding, decoded != next {
            return Self.next(decoded) == "/" && decoded != "/" ? "/" : next
        }
        return next
    }
}
