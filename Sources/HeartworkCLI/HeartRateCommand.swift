import ArgumentParser
import AsyncHTTPClient
import Foundation

/// `heartwork heart-rate`: your heart rate over a range from a server (`GET /api/heart-rate`).
struct HeartRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heart-rate",
        abstract: "Print your heart rate over the last 24 hours, 7 days, 30 days or any range from a Heartwork server.",
        discussion: """
            Reads GET /api/heart-rate: the range's lowest and highest reading and its average over \
            time (each reading counts until the next, at most 10 minutes), then the series per \
            second, minute or hour with each bucket's lowest, average and highest. --last 24h is \
            the last 24 hours up to now (not since midnight), as --last 7d and 30d are 7 × 24 and \
            30 × 24 hours. Times are shown in your profile's time zone (else this computer's).

            Examples:
              heartwork heart-rate --last 24h --server http://127.0.0.1:8080 --token "$TOKEN"
              heartwork heart-rate --from 2026-11-24T06:00:00Z --to 2026-11-24T07:00:00Z --resolution minute --server … --token …
              heartwork heart-rate --last 7d --format json --server … --token …
            """
    )

    @Option(help: "The last hours or days up to now: 24h, 7d, 30d (any number of h or d).")
    var last: String?

    @Option(help: "The range's start: a date-time such as 2026-11-24T06:00:00Z, or a day (its UTC midnight).")
    var from: String?

    @Option(help: "The range's end (default: now).")
    var to: String?

    @Option(help: "The series' buckets: second, minute or hour (default: hour).")
    var resolution: Resolution = .hour

    @OptionGroup var options: ServerOptions

    @Option(help: "Output format: table or json (the API's answer).")
    var format: OutputFormat = .table

    enum Resolution: String, ExpressibleByArgument, CaseIterable, Sendable {
        case second, minute, hour
    }

    /// "24h" → 86,400 s, "7d" → 604,800 s; nil for anything else.
    static func seconds(_ text: String) -> TimeInterval? {
        let unit = text.last
        guard let count = Int(text.dropLast()), count > 0, count <= 366 * 24 else { return nil }
        switch unit {
        case "h": return TimeInterval(count) * 3600
        case "d": return count <= 366 ? TimeInterval(count) * 86_400 : nil
        default: return nil
        }
    }

    func validate() throws {
        if let last {
            guard from == nil, to == nil else { throw ValidationError("give --last or --from/--to, not both") }
            guard Self.seconds(last) != nil else { throw ValidationError("--last is a number of hours or days, such as 24h, 7d or 30d") }
        } else {
            guard from != nil else { throw ValidationError("give --last (24h, 7d, 30d) or --from") }
        }
    }

    /// The range's query: --last as from = now − that and to = now.
    func query(now: Date) -> [URLQueryItem] {
        var items = [URLQueryItem]()
        if let last, let seconds = Self.seconds(last) {
            items.append(URLQueryItem(name: "from", value: JSONDate.string(now.addingTimeInterval(-seconds))))
            items.append(URLQueryItem(name: "to", value: JSONDate.string(now)))
        } else {
            if let from { items.append(URLQueryItem(name: "from", value: from)) }
            if let to { items.append(URLQueryItem(name: "to", value: to)) }
        }
        items.append(URLQueryItem(name: "resolution", value: resolution.rawValue))
        return items
    }

    func run() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let reply: (status: Int, json: [String: Any])
        var zone = TimeZone.current
        do {
            reply = try await options.call(client, .GET, "/api/heart-rate", query: query(now: Date()))
            if reply.status == 200, format == .table { zone = try await options.userTimeZone(client) }
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
            print(Self.table(reply.json, zone: zone))
        }
    }

    /// The range's figures, then one row a bucket.
    static func table(_ json: [String: Any], zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = json["resolution"] as? String == "second" ? "yyyy-MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm"
        let time = { (value: Any?) in (value as? String).flatMap(JSONDate.date).map { formatter.string(from: $0) } ?? "?" }
        let bpm = { (value: Any?) in DayCommand.number(value).map { "\($0) bpm" } ?? "–" }
        let covered = (json["coveredSeconds"] as? Double ?? Double(json["coveredSeconds"] as? Int ?? 0)) / 3600
        var rows: [(String, String)] = [
            ("From", "\(time(json["from"])) (\(zone.identifier))"), ("To", time(json["to"])),
        ]
        guard json["minimum"] != nil else {
            rows.append(("Heart rate", "none recorded in this range"))
            return LabelledRows.render(rows, warnings: [])
        }
        rows += [
            ("Lowest", bpm(json["minimum"])),
            ("Average", "\(bpm(json["average"])) over time (\(DayCommand.number(covered) ?? "0") h covered)"),
            ("Highest", bpm(json["maximum"])),
            ("Samples", "\(json["samples"] as? Int ?? 0)"),
        ]
        var table = TextTable(header: ["Start", "Lowest", "Average", "Highest"], rightAligned: [1, 2, 3])
        for bucket in json["series"] as? [[String: Any]] ?? [] {
            table.rows.append([
                time(bucket["start"]), DayCommand.number(bucket["minimum"]) ?? "", DayCommand.number(bucket["average"]) ?? "", DayCommand.number(bucket["maximum"]) ?? "",
            ])
        }
        return LabelledRows.render(rows, warnings: []) + "\n\nPer \(json["resolution"] as? String ?? "bucket") (bpm):\n" + table.render()
    }
}

extension DayCommand {
    /// Today's date (yyyy-mm-dd) in `zone`.
    static func today(in zone: TimeZone, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: now)
    }
}

extension ServerOptions {
    /// The account's time zone (GET /api/me), else this computer's: the user's own day.
    func userTimeZone(_ client: HTTPClient) async throws -> TimeZone {
        let me = try await call(client, .GET, "/api/me")
        guard me.status == 200 else { throw ServerOptions.failure(me.status, me.json) }
        return (me.json["timeZone"] as? String).flatMap(TimeZone.init(identifier:)) ?? .current
    }
}

/// The API's date-times (RFC 3339 in UTC, whole seconds).
enum JSONDate {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
