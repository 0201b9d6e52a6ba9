import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The server and token options of commands that talk to a running server.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's address, http:// or https://.")
    var server: String

    @Option(help: "A bearer token of the account (POST /api/auth/login answers one).")
    var token: String

    func validate() throws {
        guard url("/") != nil else { throw ValidationError("--server must be an http:// or https:// address, such as http://127.0.0.1:8080") }
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw ValidationError("--token must be one word (an API token or a session token)")
        }
    }

    func url(_ path: String, query: [URLQueryItem] = []) -> URL? {
        guard var components = URLComponents(string: server), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { return nil }
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = base + path
        if !query.isEmpty { components.queryItems = query }
        return components.url
    }

    /// A GET or PUT with the token; the status and the body as JSON (a problem's detail when it failed).
    func call(
        _ client: HTTPClient, _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [], body: [UInt8]? = nil, contentType: String = "application/json"
    ) async throws -> (status: Int, json: [String: Any]) {
        guard let url = url(path, query: query) else { throw CommandFailure("bad --server") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(60))
        } catch {
            throw CommandFailure("cannot reach \(server): \(error)")
        }
        let data = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (Int(response.status.code), json)
    }

    static func failure(_ status: Int, _ json: [String: Any]) -> CommandFailure {
        let detail = json["detail"] as? String ?? json["title"] as? String ?? "no reason given"
        return CommandFailure(status == 401 ? "the token was not accepted (\(detail))" : "the server answered \(status): \(detail)")
    }
}

/// Reads a file in 1 MB chunks as the upload's body, one chunk at a time (constant memory).
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String
    let sent: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let sent: @Sendable (Int) -> Void
        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 1 << 20), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            sent(data.count)
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: FileHandle(forReadingAtPath: path), sent: sent) }
}

/// `heartwork import apple-health FILE`: the Health app's export to a server.
struct AppleHealthImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apple-health",
        abstract: "Upload an Apple Health export (export.zip, or its export.xml) to a Heartwork server and follow its import.",
        discussion: """
            The file is streamed to POST /api/imports/apple-health (application/zip or \
            application/xml by its name), then the import's progress is followed at \
            GET /api/imports/{id} until it is done. A progress bar shows both on a terminal; then \
            a summary: samples read and new, workouts new and already stored, the days covered. \
            Importing the same or a newer export again adds only what is new. Exits 1 when the \
            import failed (the reason names the line or the zip entry; what came before is kept).

            Example:
              heartwork import apple-health ~/Downloads/export.zip --server http://127.0.0.1:8080 --token "$TOKEN"
            """
    )

    @Argument(help: "export.zip as the Health app writes it, or its export.xml.")
    var file: String

    @OptionGroup var options: ServerOptions

    @Option(help: "Output format of the summary: table or json.")
    var format: OutputFormat = .table

    @Flag(help: "Upload and print the import's id without waiting for it.")
    var noWait = false

    func run() async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
            let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber
        else {
            throw CommandFailure("\(file): no such file")
        }
        let lower = file.lowercased()
        let mediaType: String
        if lower.hasSuffix(".zip") {
            mediaType = "application/zip"
        } else if lower.hasSuffix(".xml") {
            mediaType = "application/xml"
        } else {
            throw CommandFailure("\(file): not export.zip or export.xml (name it .zip or .xml)")
        }
        guard let url = options.url("/api/imports/apple-health") else { throw CommandFailure("bad --server") }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(timeout: .init(connect: .seconds(10), read: .seconds(600))))
        do {
            try await run(client: client, url: url, mediaType: mediaType, size: size.int64Value)
            try? await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func run(client: HTTPClient, url: URL, mediaType: String, size: Int64) async throws {
        let terminal = isatty(STDERR_FILENO) != 0
        let total = Double(max(1, size))
        let sentSoFar = SentBytes()
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(options.token)")
        request.headers.add(name: "Content-Type", value: mediaType)
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .stream(
            FileChunks(path: file) { count in
                let sent = sentSoFar.add(count)
                ProgressBar.draw(fraction: Double(sent) / total, "uploading \(Self.megabytes(sent)) of \(Self.megabytes(size))", enabled: terminal)
            }, length: .known(size))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(3600))
        } catch {
            if terminal { StandardError.write("") }
            throw CommandFailure("cannot upload to \(options.server): \(error)")
        }
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        var state = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard response.status.code == 202, let id = state["id"] as? String else {
            if terminal { StandardError.write("") }
            throw ServerOptions.failure(Int(response.status.code), state)
        }
        if !noWait {
            while !["done", "failed"].contains(state["state"] as? String ?? "") {
                try await Task.sleep(for: .milliseconds(500))
                let reply = try await options.call(client, .GET, "/api/imports/\(id)")
                guard reply.status == 200 else { throw ServerOptions.failure(reply.status, reply.json) }
                state = reply.json
                let progress = state["progress"] as? Double ?? 0
                ProgressBar.draw(fraction: progress, "importing \(Int(progress * 100)) % · \(state["samplesRead"] as? Int ?? 0) samples", enabled: terminal)
            }
        }
        if terminal { StandardError.write("") }
        let summary = Summary(state)
        switch format {
        case .json: print(try JSONOutput.render(summary))
        case .table: print(summary.table())
        }
        if summary.state == "failed" { throw ExitCode(1) }
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    final class SentBytes: @unchecked Sendable {
        private let lock = NSLock()
        private var total: Int64 = 0
        func add(_ count: Int) -> Int64 {
            lock.withLock {
                total += Int64(count)
                return total
            }
        }
    }

    struct Summary: Encodable {
        var id: String
        var state: String
        var samplesRead: Int
        var samplesAdded: Int
        var workoutsAdded: Int
        var workoutsDuplicate: Int
        /// The export's workouts not stored, each reason with how many.
        var workoutsSkipped: [String: Int]
        var firstDay: String?
        var lastDay: String?
        var error: String?

        init(_ json: [String: Any]) {
            id = json["id"] as? String ?? ""
            state = json["state"] as? String ?? "queued"
            samplesRead = json["samplesRead"] as? Int ?? 0
            samplesAdded = json["samplesAdded"] as? Int ?? 0
            workoutsAdded = json["workoutsAdded"] as? Int ?? 0
            workoutsDuplicate = json["workoutsDuplicate"] as? Int ?? 0
            var skipped = [String: Int]()
            for item in json["workoutsSkipped"] as? [[String: Any]] ?? [] {
                if let reason = item["reason"] as? String { skipped[reason] = item["count"] as? Int ?? 1 }
            }
            workoutsSkipped = skipped
            firstDay = json["firstDay"] as? String
            lastDay = json["lastDay"] as? String
            error = json["error"] as? String
        }

        func table() -> String {
            var rows: [(String, String)] = [
                ("Import", id), ("State", state), ("Samples", "\(samplesRead) read, \(samplesAdded) new"),
                ("Workouts", "\(workoutsAdded) new, \(workoutsDuplicate) already stored, \(workoutsSkipped.values.reduce(0, +)) left out"),
            ]
            for (reason, count) in workoutsSkipped.sorted(by: { $0.value > $1.value }) { rows.append(("Left out", "\(count) × \(reason)")) }
            if let firstDay, let lastDay { rows.append(("Days", "\(firstDay) – \(lastDay)")) }
            return LabelledRows.render(rows, warnings: error.map { ["the import stopped: \($0); what came before it is kept"] } ?? [])
        }
    }
}

/// `heartwork day`: a day's metrics from a server.
struct DayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Print a day's recovery, strain, readiness, load, heart rate and steps from a Heartwork server.",
        discussion: """
            Reads GET /api/days/{date}: what the server worked out from the watch data imported \
            for that day (see `heartwork import apple-health`). A day with no data says so. \
            Without --date, today where you are: in your profile's time zone (GET /api/me), \
            else this computer's.

            Example:
              heartwork day --date 2026-11-24 --server http://127.0.0.1:8080 --token "$TOKEN"
            """
    )

    @Option(help: "The day, yyyy-mm-dd (default: today in your profile's time zone).")
    var date: String?

    @OptionGroup var options: ServerOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func validate() throws {
        if let date, date.utf8.count != 10 || date.split(separator: "-").count != 3 {
            throw ValidationError("--date is a day such as 2026-11-24")
        }
    }

    func run() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let reply: (status: Int, json: [String: Any])
        do {
            var day = date ?? ""
            if date == nil { day = Self.today(in: try await options.userTimeZone(client)) }
            reply = try await options.call(client, .GET, "/api/days/\(day)")
            try? await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
        guard reply.status == 200 else { throw ServerOptions.failure(reply.status, reply.json) }
        switch format {
        case .json:
            let data = try JSONSerialization.data(withJSONObject: reply.json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        case .table:
            print(Self.table(reply.json))
        }
    }

    static func number(_ value: Any?, places: Int = 1) -> String? {
        guard let value = value as? Double else { return (value as? Int).map(String.init) }
        guard value.isFinite else { return nil }
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    static func table(_ day: [String: Any]) -> String {
        let date = day["date"] as? String ?? "?"
        guard day["hasData"] as? Bool == true else {
            var rows = [("Day", date), ("Data", "none recorded")]
            if let mark = day["mark"] as? String { rows.append(("Marked", mark)) }
            return LabelledRows.render(rows, warnings: [])
        }
        var rows: [(String, String)] = [("Day", date)]
        if let sleep = day["sleep"] as? [String: Any] {
            let recovery = number(sleep["recoveryPercent"]).map { "\($0) %" } ?? "–"
            let asleep = number(sleep["asleepHours"], places: 2).map { ", asleep \($0) h" } ?? ""
            rows.append(
                (
                    "Recovery",
                    "\(recovery) (in bed \(number(sleep["inBedHours"], places: 2) ?? "?") h\(asleep), quality \(sleep["quality"] as? Int ?? 0)/10 \(sleep["qualitySource"] as? String ?? ""))"
                ))
        } else {
            rows.append(("Recovery", "– (no night recorded)"))
        }
        if let rise = day["rise"] as? [String: Any] {
            rows.append(("Strain", "\(number(rise["strain"]) ?? "0") of 10 (highest \(number(rise["maximumStrain"]) ?? "0"))"))
            for workout in rise["workouts"] as? [[String: Any]] ?? [] {
                rows.append(("Workout", "\(workout["name"] as? String ?? "") intensity \(number(workout["intensity"]) ?? "0") (\(number(workout["points"]) ?? "0") points)"))
            }
            rows.append(("Elevated", "intensity \(number(rise["elevatedIntensity"]) ?? "0"), \(number(rise["elevatedHours"]) ?? "0") h"))
            rows.append(("Inactive", "\(number(rise["inactiveHours"]) ?? "0") h"))
        }
        if let readiness = day["readiness"] as? [String: Any] {
            rows.append(("Readiness", "\(readiness["status"] as? String ?? "unknown"): \(readiness["reason"] as? String ?? "")"))
        }
        if let load = day["load"] as? [String: Any] {
            let ratio = number(load["ratio"], places: 2).map { ", ratio \($0)" } ?? ""
            rows.append(("Load", "TRIMP \(number(load["trimp"]) ?? "0"), acute \(number(load["acute"]) ?? "0"), chronic \(number(load["chronic"]) ?? "0")\(ratio)"))
        }
        if let heart = day["heartRate"] as? [String: Any] {
            rows.append(("Heart rate", "\(number(heart["minimum"]) ?? "?")–\(number(heart["maximum"]) ?? "?") bpm, average \(number(heart["average"]) ?? "?")"))
        }
        if let resting = number(day["restingHeartRate"]) { rows.append(("Resting", "\(resting) bpm")) }
        if let hrv = number(day["hrvSDNNMilliseconds"]) { rows.append(("HRV", "SDNN \(hrv) ms")) }
        if let steps = day["steps"] as? Int { rows.append(("Steps", String(steps))) }
        if let mark = day["mark"] as? String { rows.append(("Marked", mark)) }
        return LabelledRows.render(rows, warnings: [])
    }
}
