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

    /// A label from text or a photo (blocking the calling thread while OCR runs: for the CLI).
    public static func read(_ bytes: [UInt8]) throws(Failure) -> NutritionLabel {
        let text = isImage(bytes) ? try recognize(bytes) : String(decoding: bytes, as: UTF8.self)
        do {
            return try NutritionLabel.parse(text)
        } catch {
            throw .notALabel(error.description)
        }
    }

    /// The most pixels a photo may have for OCR: 50 megapixels (a 48-megapixel phone photo
    /// fits). Tesseract's memory grows with the pixels — a 30000×30000 PNG of 875 KB took it to
    /// 2.7 GB —, and a 49-megapixel page peaked at 183 MB here (2026-11-26).
    public static let maximumPixels = 50_000_000
    /// The address space Tesseract runs in (`ulimit -v`): a photo it cannot read within it
    /// fails, never the server.
    public static let ocrMemoryBytes = 1 << 30

    /// One photo is read at a time; the next waits up to 30 s.
    static let ocrGate = WorkGate(limit: 1, patience: .seconds(30), busy: "another photo is being read; try again in a minute")

    /// A label from text or a photo, without blocking the caller's thread: OCR runs on a
    /// thread of its own, one photo at a time.
    public static func label(from bytes: [UInt8]) async throws -> NutritionLabel {
        guard isImage(bytes) else { return try read(bytes) }
        let text = try await ocrGate.run {
            try await Blocking.run { () throws -> String in try recognize(bytes) }
        }
        do {
            return try NutritionLabel.parse(text)
        } catch {
            throw Failure.notALabel(error.description)
        }
    }

    /// The text Tesseract reads in a photo (one uniform block of text, `--psm 6`), within 60 s:
    /// a PNG or JPEG checked from its first byte to its last, of at most `maximumPixels`,
    /// read by Tesseract in at most `ocrMemoryBytes` of address space on one thread. Blocks
    /// the calling thread.
    public static func recognize(_ bytes: [UInt8]) throws(Failure) -> String {
        guard bytes.count <= maximumImageBytes else { throw .ocr("the photo is larger than \(maximumImageBytes >> 20) MB") }
        let image: ImageFile
        do {
            image = try ImageFile(bytes)
        } catch .notAnImage {
            throw .ocr("photos are read as PNG or JPEG; save or send it in one of those")
        } catch {
            throw .ocr(error.description)
        }
        guard image.width * image.height <= maximumPixels else {
            throw .ocr("the photo is \(image.width)×\(image.height) pixels; at most \(maximumPixels / 1_000_000) megapixels are read, so send a smaller one")
        }
        guard let tesseract else { throw .noOCR }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heartwork-ocr-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .ocr("no temporary space (\(error))")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent(image.kind == .png ? "label.png" : "label.jpg")
        let output = directory.appendingPathComponent("text")
        let errors = directory.appendingPathComponent("errors")
        let process = Process()
        do {
            try Data(bytes).write(to: input)
            guard FileManager.default.createFile(atPath: errors.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            // A shell sets the memory limit, then becomes Tesseract ("$0" is its path).
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v \(ocrMemoryBytes / 1024) && exec \"$0\" \"$@\"", tesseract, input.path, output.path, "--psm", "6"]
            var environment = ProcessInfo.processInfo.environment
            environment["OMP_THREAD_LIMIT"] = "1"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            throw .ocr("Tesseract did not start (\(error))")
        }
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + .seconds(60))
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0,
            let text = FileManager.default.contents(atPath: output.path + ".txt")
        else {
            let message = FileManager.default.contents(atPath: errors.path) ?? Data()
            let reason = String(decoding: message.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .ocr(
                process.terminationReason == .uncaughtSignal
                    ? "Tesseract stopped (it took longer than 60 s or ran out of its memory)"
                    : reason.isEmpty ? "Tesseract stopped (status \(process.terminationStatus))" : reason)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
