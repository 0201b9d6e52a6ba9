import ArgumentParser
import Foundation

/// How a command prints its result: aligned text for people, JSON for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json
}

/// JSON as every command prints it: pretty, keys sorted, so output diffs cleanly.
enum JSONOutput {
    static func render<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Values printed with at most `places` decimals; for JSON the double itself is rounded
/// so that 140.492 prints as 140.492, not 140.49200000000002.
extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = Foundation.pow(10.0, Double(places))
        return (self * scale).rounded() / scale
    }

    func formatted(places: Int) -> String {
        String(format: "%.\(places)f", self)
    }
}

/// Writes diagnostics to standard error, where they do not mix with data on stdout.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A runtime failure the user can act on; ArgumentParser prints it as `Error: …`, exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Label–value rows with the labels padded to one width (`inspect`, `food-label`), and an
/// indented list of warnings after them when there are any.
enum LabelledRows {
    static func lines(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }

    static func render(_ rows: [(String, String)], warnings: [String]) -> String {
        var lines = lines(rows)
        if !warnings.isEmpty {
            lines.append("Warnings:")
            lines += warnings.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
