import ArgumentParser
import AsyncHTTPClient
import Foundation
import HeartworkCore
import HeartworkFormats
import NIOCore

/// `heartwork import`: activity files (`heartwork import FILE…`, the default) or an Apple
/// Health export (`heartwork import apple-health FILE`) to a server.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Upload activity files, or an Apple Health export, to a Heartwork server.",
        discussion: """
            `heartwork import FILE…` uploads activity files (see `heartwork import files --help`);             `heartwork import apple-health export.zip` uploads the Health app's export.

            Examples:
              heartwork import ~/GarminExport --server http://127.0.0.1:8080 --token "$TOKEN"
              heartwork import apple-health ~/Downloads/export.zip --server http://127.0.0.1:8080 --token "$TOKEN"
            """,
        subcommands: [ImportFilesCommand.self, AppleHealthImportCommand.self],
        defaultSubcommand: ImportFilesCommand.self
    )
}

/// `heartwork import [files] FILE…`: a folder of activity files to a server, through `POST /api/workouts`.
struct ImportFilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Upload activity files (FIT, TCX, GPX, JSON) and RR exports to a Heartwork server (the default of `heartwork import`).",
        discussion: """
            Each FILE may be a folder: every .fit, .tcx, .gpx and .json file in it and its \
            subfolders is sent (hidden files skipped). FIT, TCX and GPX files go as they are, \
            with their media type, so the server reads them exactly as the upload page does; an \
            RR export (a .txt, .csv or .rr file named on the command line) is read here and sent \
            as a workout with the heart rate rebuilt from its intervals. A file the server \
            already holds (same start within a second, same device) is reported as a duplicate \
            and not stored again, so an import can be run again after an interruption. Prints a \
            progress bar on a terminal, then a line per failed file with the server's reason and \
            a summary; exits 1 when any file failed.

            The token is an API token or a session token (POST /api/auth/login answers one).

            Examples:
              heartwork import ~/GarminExport --server http://127.0.0.1:8080 --token "$TOKEN"
              heartwork import morning.txt --start 2026-06-04T06:58:00Z --server http://127.0.0.1:8080 --token "$TOKEN"
            """
    )

    @Argument(help: "Files and folders to import.")
    var files: [String]

    @OptionGroup var options: ServerOptions

    @Option(help: "Uploads at a time.")
    var jobs: Int = 4

    @Option(help: "The start of an RR export that does not carry it (ISO 8601).")
    var start: DateArgument?

    @Option(help: "The sport for RR exports: running, cycling, strength or other.")
    var sport: Sport?

    @Option(help: "Output format of the summary: table or json.")
    var format: OutputFormat = .table

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 64") }
    }

    enum Outcome: Sendable {
        /// The workout's id, and what the server left out or found cut.
        case imported(String, warnings: [String], replaced: String?)
        case duplicate(String)
        case failed(String)
    }

    struct Result: Encodable {
        struct Failure: Encodable {
            var file: String
            var reason: String
        }

        struct Warning: Encodable {
            var file: String
            var message: String
        }

        var imported = 0
        /// Of those imported, how many took the place of a shorter, cut copy stored before.
        var replaced = 0
        var duplicates = 0
        var failed = 0
        var seconds = 0.0
        var failures: [Failure] = []
        /// What was left out of files that were imported (artifacts, a cut end).
        var warnings: [Warning] = []
        var importedWorkouts: [String] = []
    }

    func run() async throws {
        let paths = try Self.collect(files)
        guard !paths.isEmpty else {
            throw CommandFailure("no activity files (.fit, .tcx, .gpx, .json) in \(files.joined(separator: ", "))")
        }
        guard let url = options.url("/api/workouts") else { throw CommandFailure("bad --server") }
        let session = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(
                timeout: .init(connect: .seconds(10), read: .seconds(300)),
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: jobs)))
        do {
            try await send(paths, to: url, session: session)
            try? await session.shutdown()
        } catch {
            try? await session.shutdown()
            throw error
        }
    }

    func send(_ paths: [String], to url: URL, session: HTTPClient) async throws {
        let began = Date()
        var result = Result()
        let progress = ProgressBar(total: paths.count)
        let options = (token: self.options.token, start: start?.date, sport: sport)
        // A wrong token or address stops the import: nothing more is sent, the uploads in
        // flight finish, then the reason is given.
        var fatal: String?
        try await withThrowingTaskGroup(of: (String, Outcome).self) { group in
            var next = 0
            func add() {
                guard fatal == nil, next < paths.count else { return }
                let path = paths[next]
                next += 1
                group.addTask { (path, await Self.upload(path: path, to: url, session: session, options: options)) }
            }
            for _ in 0..<min(jobs, paths.count) { add() }
            while let (path, outcome) = try await group.next() {
                switch outcome {
                case .imported(let id, let warnings, let replaced):
                    result.imported += 1
                    result.importedWorkouts.append(id)
                    if let replaced {
                        result.replaced += 1
                        result.warnings.append(.init(file: path, message: replaced))
                    }
                    result.warnings += warnings.map { .init(file: path, message: $0) }
                case .duplicate: result.duplicates += 1
                case .failed(let reason):
                    result.failed += 1
                    result.failures.append(.init(file: path, reason: reason))
                    if case .fatal = Self.severity(reason), fatal == nil { fatal = reason }
                }
                progress.update(
                    done: result.imported + result.duplicates + result.failed, imported: result.imported,
                    duplicates: result.duplicates, failed: result.failed)
                add()
            }
        }
        progress.finish()
        if let fatal { throw CommandFailure(fatal) }
        result.seconds = Date().timeIntervalSince(began).rounded(toPlaces: 2)
        result.failures.sort { $0.file < $1.file }
        result.warnings.sort { $0.file < $1.file }
        switch format {
        case .json:
            print(try JSONOutput.render(result))
        case .table:
            for warning in result.warnings { print("note    \(warning.file): \(warning.message)") }
            for failure in result.failures { print("failed  \(failure.file): \(failure.reason)") }
            let rate = result.seconds > 0 ? Double(paths.count) / result.seconds : 0
            print(
                "\(result.imported) imported\(result.replaced > 0 ? " (\(result.replaced) in place of a shorter, cut copy)" : ""), \(result.duplicates) duplicate\(result.duplicates == 1 ? "" : "s") skipped, \(result.failed) failed"
                    + " (\(paths.count) file\(paths.count == 1 ? "" : "s") in \(result.seconds.formatted(places: 1)) s, \(rate.formatted(places: 1)) files/s)")
        }
        if result.failed > 0 { throw ExitCode(1) }
    }

    enum Severity { case file, fatal }

    /// A wrong token or address stops the whole import (every file would fail the same way).
    static func severity(_ reason: String) -> Severity {
        reason.hasPrefix("401") || reason.hasPrefix("403") || reason.hasPrefix("cannot reach") ? .fatal : .file
    }

    /// Files by name; folders walked for the activity extensions.
    static func collect(_ arguments: [String]) throws -> [String] {
        var paths = [String]()
        let manager = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: argument, isDirectory: &isDirectory) else { throw CommandFailure("no such file or folder: \(argument)") }
            guard isDirectory.boolValue else {
                paths.append(argument)
                continue
            }
            guard let walker = manager.enumerator(atPath: argument) else { throw CommandFailure("\(argument) cannot be read") }
            var found = [String]()
            while let relative = walker.nextObject() as? String {
                let name = relative.split(separator: "/").last.map(String.init) ?? relative
                guard !name.hasPrefix("."), relative.split(separator: "/").allSatisfy({ !$0.hasPrefix(".") }),
                    ActivityFileFormat(path: name) != nil
                else { continue }
                let full = argument.hasSuffix("/") ? argument + relative : argument + "/" + relative
                var isFolder: ObjCBool = false
                if manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue { found.append(full) }
            }
            paths += found.sorted()
        }
        return paths
    }

    static func upload(path: String, to url: URL, session: HTTPClient, options: (token: String, start: Date?, sport: Sport?)) async -> Outcome {
        let body: [UInt8]
        let mediaType: String
        do {
            let bytes = try LocalFile.read(path)
            switch LocalFile.kind(of: path, bytes: bytes) {
            case .activity(let format):
                body = bytes
                mediaType = format.mediaType
            case .rr:
                body = WorkoutJSON.write(try LocalFile.workout(path: path, bytes: bytes, start: options.start, sport: options.sport))
                mediaType = ActivityFileFormat.json.mediaType
            }
        } catch {
            let text = "\(error)"
            return .failed(text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(options.token)")
        request.headers.add(name: "Content-Type", value: mediaType)
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        // A busy server (503) or a dropped connection is tried again, up to three times.
        var attempt = 0
        while true {
            attempt += 1
            do {
                let response = try await session.execute(request, timeout: .seconds(300))
                let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
                let status = Int(response.status.code)
                let reply = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                switch status {
                case 200, 201:
                    let id = (reply?["summary"] as? [String: Any])?["id"] as? String ?? ""
                    let warnings = (reply?["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
                    // 200 with `replaced`: a longer copy took the place of a cut one stored before.
                    return .imported(id, warnings: warnings, replaced: (reply?["replaced"] as? [String: Any])?["message"] as? String)
                case 409: return .duplicate(response.headers.first(name: "Location") ?? "")
                case 429 where attempt < 30:
                    // More uploads at once than the server takes from one account
                    // (--jobs above its limit): wait as it says and send again.
                    let seconds = response.headers.first(name: "Retry-After").flatMap(Double.init) ?? 2
                    try? await Task.sleep(for: .seconds(min(max(seconds / 5, 0.2), 10)))
                    continue
                case 502, 503, 504:
                    if attempt < 3 {
                        try? await Task.sleep(for: .seconds(Double(attempt)))
                        continue
                    }
                    return .failed("\(status) the server is busy or down")
                default:
                    let detail = reply?["detail"] as? String ?? reply?["title"] as? String ?? String(decoding: data.prefix(200), as: UTF8.self)
                    let why = status == 401 ? "the token was not accepted: \(detail)" : detail
                    return .failed("\(status) \(why)")
                }
            } catch {
                if attempt < 3 {
                    try? await Task.sleep(for: .seconds(Double(attempt)))
                    continue
                }
                return .failed("cannot reach \(url.absoluteString): \(error)")
            }
        }
    }
}

/// A one-line progress bar on standard error, drawn only on a terminal.
final class ProgressBar: @unchecked Sendable {
    /// A bar for any amount: `fraction` of 0…1 and a text after it.
    static func draw(fraction: Double, _ text: String, enabled: Bool) {
        guard enabled else { return }
        let width = 30
        let filled = max(0, min(width, Int((fraction.isFinite ? fraction : 0) * Double(width))))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(text)\u{1B}[K".utf8))
    }

    let total: Int
    let enabled = isatty(STDERR_FILENO) != 0
    private var lastDraw = Date.distantPast

    init(total: Int) { self.total = total }

    func update(done: Int, imported: Int, duplicates: Int, failed: Int) {
        guard enabled, done == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total)  imported \(imported) · duplicates \(duplicates) · failed \(failed)\u{1B}[K".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
