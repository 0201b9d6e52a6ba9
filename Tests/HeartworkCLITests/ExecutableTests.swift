import Foundation
import HeartworkTestSupport
import Testing

/// Runs the built `heartwork` binary, as a user would, to check exit codes and streams.
@Suite("heartwork executable")
struct ExecutableTests {
    struct Run {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The binary sits next to the test bundle in the build folder.
    static func executable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("heartwork") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path).joined(separator: ", ")])
        }
        return found
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        if !extra.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new } }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// A photo of the FDA's sample label (scripts/make_label_image.py) read through Tesseract
    /// when this machine has it (CI installs Debian's tesseract-ocr), and a clear message when not.
    @Test func foodLabelPhotosAreReadByTesseractOrExplained() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fda-label.png").path
        let without = try run(["food-label", photo], environment: ["HEARTWORK_TESSERACT": ""])
        #expect(without.status != 0 && without.standardError.contains("needs Tesseract OCR") && without.standardError.contains("apt-get install tesseract-ocr"))
        let installed = ["/usr/bin/tesseract", "/usr/local/bin/tesseract"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        let read = try run(["food-label", photo, "--format", "json"])
        if installed {
            #expect(read.status == 0, "\(read.standardError)")
            let label = (try JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8)) as? [String: Any]) ?? [:]
            #expect(label["calories"] as? Double == 230 && label["sodiumMilligrams"] as? Double == 160 && label["addedSugarsGrams"] as? Double == 10, "\(label)")
            #expect(label["unhealthy"] as? Bool == true, "10 g of added sugars is 20 % of the daily value")
        } else {
            #expect(read.status != 0 && read.standardError.contains("needs Tesseract OCR"))
        }
        // Not a label at all.
        let directory = try TemporaryDirectory()
        let notes = directory.url.appendingPathComponent("notes.txt")
        try Data("Remember to buy milk and bread.".utf8).write(to: notes)
        let notLabel = try run(["food-label", notes.path])
        #expect(notLabel.status != 0 && !notLabel.standardError.isEmpty)
    }

    @Test func decodesTheSpecificationExample() throws {
        let run = try run(["hrm", "decode", "16480004"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "16480004: 72 bpm, contact detected, RR [1000.0 ms]\n")
    }

    @Test func truncatedSixteenBitHeartRateFailsNamingTheOffset() throws {
        let run = try run(["hrm", "decode", "1948"])
        #expect(run.status != 0)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("byte offset 1"))
        #expect(run.standardError.contains("16-bit heart rate"))
    }

    @Test func badInputExitsNonZeroWithAReason() throws {
        let absurdAge = try run(["zones", "--age", "500", "--resting-hr", "65"])
        #expect(absurdAge.status != 0)
        #expect(absurdAge.standardError.contains("age 500 years is outside 10–100 years"))
        let unknownFormula = try run(["zones", "--age", "30", "--resting-hr", "65", "--max-hr-formula", "magic"])
        #expect(unknownFormula.status != 0)
        #expect(unknownFormula.standardError.contains("'magic' is invalid"))
        let restingAboveMax = try run(["zones", "--age", "30", "--resting-hr", "140", "--max-hr", "130"])
        #expect(restingAboveMax.status != 0)
        #expect(restingAboveMax.standardError.contains("must be below the maximum heart rate"))
        let malformedHex = try run(["hrm", "decode", "16Q8"])
        #expect(malformedHex.status != 0)
        #expect(malformedHex.standardError.contains("'Q' at character 3 is not a hexadecimal digit"))
    }

    /// The Web Push contact (`--push-contact` or `HEARTWORK_PUSH_CONTACT`) is a mailto: or
    /// https: URL, or the server does not start (RFC 8292 §2.1: the `sub` claim is a contact
    /// URI), and says so before it opens a database.
    @Test func aPushContactThatIsNoURLStopsTheServerWithAReason() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("push-contact-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let option = try run(["serve", "--port", "0", "--data-dir", data, "--push-contact", "webmaster@example.org"])
        #expect(option.status != 0)
        #expect(option.standardError.contains("--push-contact 'webmaster@example.org' is not a mailto: or https: URL"))
        let variable = try run(["serve", "--port", "0", "--data-dir", data], environment: ["HEARTWORK_PUSH_CONTACT": "ftp://example.org"])
        #expect(variable.status != 0)
        #expect(variable.standardError.contains("'ftp://example.org' is not a mailto: or https: URL"))
        #expect(!FileManager.default.fileExists(atPath: data + "/heartwork.sqlite"))
    }

    @Test func everyCommandHasHelpWithAnExample() throws {
        for command in [["zones"], ["hrm", "decode"], ["hrm", "encode"], ["calories"], ["compete"]] {
            let run = try run(command + ["--help"])
            #expect(run.status == 0)
            #expect(run.standardOutput.contains("heartwork \(command.joined(separator: " "))"), "\(command)")
            #expect(run.standardOutput.lowercased().contains("example"), "\(command) help has no example")
        }
    }
}
