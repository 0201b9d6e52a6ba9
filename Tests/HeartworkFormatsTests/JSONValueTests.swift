import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

@Suite("JSON parser")
struct JSONValueTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func documents() throws {
        let value = try parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "x\"y\\z\u00e9\ud83d\ude00\n"}, "": []} "#)
        #expect(value["a"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"] == .string("x\"y\\zé😀\n"))
        #expect(value[""] == .array([]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try parse("\"plain\"") == .string("plain"))
    }

    /// Law: every decimal parses to exactly the double strtod (and Swift) gives.
    @Test func numbersAreExact() throws {
        var random = SplitMix64(seed: 77)
        for _ in 0..<20_000 {
            let value: Double =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 1000
                case 1: Double.random(in: -1...1, using: &random) * pow(10, Double(Int.random(in: -30...30, using: &random)))
                case 2: (Double.random(in: 0...200, using: &random) * 1e7).rounded() / 1e7
                default: Double.random(in: -1e6...1e6, using: &random)
                }
            let text = "\(value)"
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("48.2088123") == .number(48.2088123))
        #expect(try parse("123456789012345678901234567890") == .number(1.2345678901234568e29))
    }

    @Test(arguments: [
        ("", 0, "unexpected end of the document"),
        ("{\"a\": }", 6, "unexpected character '}'"),
        ("[1, 2", 5, "unexpected end of the document inside an array"),
        ("{\"a\": 1, \"a\": 2}", 9, "the member \"a\" appears twice"),
        ("01", 1, "a number may not start with 0"),
        ("1.", 2, "a decimal point needs digits after it"),
        ("\"tab\there\"", 4, "control character inside a string"),
        ("[1] x", 4, "unexpected text after the JSON value"),
        ("tru", 0, "unexpected end of the document"),
        ("1e999", 0, "the number is too large"),
    ])
    func malformedDocumentsNameTheByte(text: String, offset: Int, reason: String) {
        #expect(throws: JSONParseError(offset: offset, reason: reason)) { try parse(text) }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try parse(deep) }
    }

    @Test func randomBytesNeverTrap() {
        var random = SplitMix64(seed: 5)
        let alphabet = Array("{}[],:\"\\ 0123456789.eE+-truefalsn\u{1}é".utf8)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            _ = try? JSONValue.parse(bytes)
        }
    }

    /// Same value as Foundation's JSONSerialization on a realistic document.
    @Test func agreesWithFoundation() throws {
        let text = #"{"sport":"running","startTime":"2026-11-20T07:00:00Z","heartRate":[120,null,121.0],"track":[{"lat":48.2088,"lon":16.3726,"ele":180.5,"t":0}]}"#
        let ours = try parse(text)
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(ours["sport"] == .string(theirs["sport"] as! String))
        #expect(ours["track"] == .array([.object([("lat", .number(48.2088)), ("lon", .number(16.3726)), ("ele", .number(180.5)), ("t", .number(0))])]))
        #expect(ours["heartRate"] == .array([.number(120), .null, .number(121)]))
    }
}
