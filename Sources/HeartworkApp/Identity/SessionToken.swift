import Crypto
import Foundation

/// Opaque random tokens; only their SHA-256 is ever stored.
public enum SessionToken {
    /// 32 random bytes from the system CSPRNG, base64url, with a recognisable prefix.
    public static func generate(prefix: String = "hw_") -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + base64URL(bytes)
    }

    public static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Constant-time comparison, for CSRF tokens.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// A CSRF token as a page carries it: a fresh random pad and the token XOR that pad, in
    /// hex, so compressed pages never repeat the secret (BREACH; Django and Rails do the same).
    public static func masked(_ token: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let secret = Array(token.utf8)
        let pad = secret.map { _ in UInt8.random(in: 0...255, using: &generator) }
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(secret.count * 4)
        for byte in pad + zip(secret, pad).map({ $0 ^ $1 }) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether a presented CSRF token is the session's, plain or masked; constant time in the
    /// token's content.
    public static func matchesCSRF(_ presented: String, expected: String) -> Bool {
        if equal(presented, expected) { return true }
        let hex = Array(presented.utf8)
        let length = expected.utf8.count
        guard length > 0, hex.count == length * 4 else { return false }
        var bytes = [UInt8]()
        bytes.reserveCapacity(length * 2)
        var index = 0
        while index + 1 < hex.count {
            guard let high = hexValue(hex[index]), let low = hexValue(hex[index + 1]) else { return false }
            bytes.append(high << 4 | low)
            index += 2
        }
        let unmasked = (0..<length).map { bytes[$0] ^ bytes[length + $0] }
        return equal(String(decoding: unmasked, as: UTF8.self), expected)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
