/// Hexadecimal text ↔ bytes, as packets are pasted from sniffers and gateway logs.
/// Accepts an optional 0x prefix and spaces, colons or dashes between bytes.
public enum HexBytes {
    public static func parse(_ text: some StringProtocol) throws(HexBytesError) -> [UInt8] {
        // The usual case — digits only, an even count — from the UTF-8 bytes: walking
        // Characters took 2 % of the server's CPU at 10,000 straps (perf). Anything else (a
        // prefix, separators, a mistake to name) goes the careful way below.
        if let plain = plainDigits(text.utf8) { return plain }
        let whole = Substring(text)
        var body = whole.trimmingWhitespace
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        let skipped = whole.distance(from: whole.startIndex, to: body.startIndex)
        var bytes = [UInt8]()
        var high: UInt8?
        for (offset, character) in body.enumerated() {
            let column = skipped + offset + 1
            if character == " " || character == ":" || character == "-" || character == "\t" {
                if high != nil { throw .splitByte(column: column) }
                continue
            }
            guard let nibble = character.hexDigitValue.map(UInt8.init) else {
                throw .invalidCharacter(character, column: column)
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        if high != nil { throw .oddDigitCount }
        return bytes
    }

    private static func plainDigits(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for code in utf8 {
            let nibble: UInt8
            switch code {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = code - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = code - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = code - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    public static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}

public enum HexBytesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `column` counts characters from 1.
    case invalidCharacter(Character, column: Int)
    case oddDigitCount
    case splitByte(column: Int)

    public var description: String {
        switch self {
        case .invalidCharacter(let character, let column):
            "'\(character)' at character \(column) is not a hexadecimal digit"
        case .oddDigitCount:
            "odd number of hexadecimal digits: every byte takes two"
        case .splitByte(let column):
            "the separator at character \(column) splits a byte: every byte takes two digits"
        }
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
