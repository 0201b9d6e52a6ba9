import Foundation
import HeartworkFormats

/// Nutrition labels (issue 11, iHeart's food scanner): typed or pasted text, or a photo read by
/// Tesseract OCR (Debian's `tesseract-ocr`) when it is installed — a clear message when not.
public enum LabelReader {
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// The text is not a label (the parser's reason).
        case notALabel(String)
        /// A photo, but no Tesseract here.
        case noOCR
        /// Tesseract ran and failed.
        case ocr(String)

        public var description: String {
            switch self {
            case .notALabel(let reason): reason
            case .noOCR: "reading a photo of a label needs Tesseract OCR on this server (Debian: apt-get install tesseract-ocr); type or paste the label's text instead"
            case .ocr(let reason): "the photo could not be read: \(reason)"
            }
        }
    }

    /// The largest photo read (a phone's photo is 2–6 MB).
    public static let maximumImageBytes = 20 << 20

    /// Whether `bytes` look like a photo (PNG, JPEG, TIFF, BMP, WebP, GIF) rather than text.
    public static func isImage(_ bytes: [UInt8]) -> Bool {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && Array(bytes.prefix(prefix.count)) == prefix }
        return starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x42, 0x4D]) || starts([0x47, 0x49, 0x46, 0x38])
            || (starts([0x52, 0x49, 0x46, 0x46]) && bytes.count >= 12 && Array(bytes[8..<12]) == [0x57, 0x45, 0x42, 0x50])
    }

    /// Tesseract's path, when installed (`HEARTWORK_TESSERACT` names another, or, empty, none).
    public static var tesseract: String? {
        if let chosen = ProcessInfo.processInfo.environment["HEARTWORK_TESSERACT"] {
            return chosen.isEmpty || !FileManager.default.isExecutableFile(atPath: chosen) ? nil : chosen
        }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return paths.map { $0 + "/tesseract" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A label from text or a photo.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> NutritionLabel {
        let text = isImage(bytes) ? try recognize(bytes) : String(decoding: bytes, as: UTF8.self)
        do {
            return try NutritionLabel.parse(text)
        } catch {
            throw .notALabel(error.description)
        }
    }

    /// The text Tesseract reads in a photo (one uniform block of text, `--psm 6`), within 60 s.
    public static func recognize(_ bytes: [UInt8]) throws(Failure) -> String {
        guard let tesseract else { throw .noOCR }
        guard bytes.count <= maximumImageBytes else { throw .ocr("the photo is larger than \(maximumImageBytes >> 20) MB") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heartwork-ocr-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .ocr("no temporary space (\(error))")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("label")
        let process = Process()
        let output = Pipe(), errors = Pipe()
        do {
            try Data(bytes).write(to: image)
            process.executableURL = URL(fileURLWithPath: tesseract)
            process.arguments = [image.path, "-", "--psm", "6"]
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            throw .ocr("Tesseract did not start (\(error))")
        }
        let deadline = DispatchTime.now() + .seconds(60)
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: deadline)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let reason = String(decoding: message.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .ocr(reason.isEmpty ? "Tesseract stopped (status \(process.terminationStatus))" : reason)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
