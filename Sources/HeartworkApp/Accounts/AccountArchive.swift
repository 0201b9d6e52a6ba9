import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Everything a user has, as a ZIP archive written entry by entry (so it can be sent while it
/// is made): their profile, friends list, measurements, every workout as Heartwork JSON and as
/// FIT, and every row of theirs in every table of the store (`data/<table>.json`, secrets such
/// as password and token hashes left out). See docs/FILES.md for the layout.
public struct AccountArchive: Sendable {
    let store: HeartworkStore

    public init(store: HeartworkStore) { self.store = store }

    /// The archive's file name: heartwork-export-<username>-<yyyy-mm-dd>.zip.
    public static func fileName(for user: UserRecord, at date: Date = Date()) -> String {
        let safe = user.username.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        return "heartwork-export-\(safe.isEmpty ? "account" : safe)-\(ExportedWorkout.day(date, zone: TimeZones.zone(user.timeZone))).zip"
    }

    /// Writes the archive to `sink` in pieces. `deflate` gives an entry's raw DEFLATE stream
    /// (RFC 1951), or nil to store it as it is.
    public func write(
        for user: UserRecord, now: Date = Date(), deflate: ([UInt8]) -> [UInt8]?,
        to sink: ([UInt8]) async throws -> Void
    ) async throws {
        var zip = ZipStreamWriter()
        func add(_ name: String, _ bytes: [UInt8], modified: Date = now) async throws {
            try await sink(zip.entry(name: name, bytes: bytes, deflated: deflate(bytes), modified: modified))
        }
        func json<T: Encodable>(_ value: T) throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            return Array(try encoder.encode(value)) + [0x0A]
        }

        try await add("README.txt", Array(Self.readme(user: user, now: now).utf8))
        // Each table's rows are read when its entry is written, so no more than one table of
        // the user's is in memory at once (a coach's sensor blocks can be large).
        func rows(_ name: String) async throws -> [AccountData.Row] {
            guard let table = AccountData.tables.first(where: { $0.name == name }) else { return [] }
            return try await store.accountRows(table, userID: user.id)
        }
        try await add("profile.json", try json(try await rows("users").first ?? [:]))
        let friends = try await store.friends.friends(of: user.id).map { Friend(id: $0.id, username: $0.username, fullName: $0.fullName) }
        try await add("friends.json", try json(friends))
        try await add("measurements.json", try json(try await rows("measurements")))

        // Workouts, a page at a time: each as JSON and as FIT, named by its start.
        var written = 0
        var page = Page(limit: 100, offset: 0)
        while true {
            let records = try await store.workouts.list(userID: user.id, from: nil, to: nil, sharedOnly: false, page: page)
            for record in records {
                guard let streams = try await store.workouts.streams(workoutID: record.id) else { continue }
                let workout = WorkoutService.newWorkout(record, streams: streams)
                let base = "workouts/\(ExportedWorkout.stamp(record.startedAt, zone: TimeZones.zone(user.timeZone)))-\(record.sport.rawValue)-\(record.id.prefix(8))"
                for format in [ActivityFileFormat.json, .fit] {
                    try await add(base + "." + format.rawValue, try ActivityFiles.bytes(of: workout, format: format), modified: record.startedAt)
                }
                written += 1
            }
            guard records.count == page.limit else { break }
            page = Page(limit: page.limit, offset: page.offset + page.limit)
        }

        try await writeHealth(for: user, add: { try await add($0, $1) })

        // The live feed's newest readings are in its blocks before they are read.
        try await store.sensors.flush()
        for table in AccountData.tables {
            try await add("data/\(table.name).json", try json(try await store.accountRows(table, userID: user.id)))
        }
        try await sink(zip.finish(comment: "Heartwork account export of \(user.username), \(written) workouts"))
    }

    struct Friend: Encodable {
        var id: String
        var username: String
        var fullName: String
    }

    static func readme(user: UserRecord, now: Date) -> String {
        """
        Heartwork account export
        ========================

        Account: \(user.username) (\(user.fullName))
        Made: \(ActivityXMLWriter.timestamp(now))

        profile.json        your account and settings (the password hash is not exported)
        friends.json        the people you are friends with: id, username and full name
        measurements.json   your weight, resting heart rate and other measurements
        workouts/           every workout twice: Heartwork JSON (what POST /api/workouts takes,
                            so it can be imported again) and FIT (Garmin Connect, Strava, Golden
                            Cheetah and most training tools read it)
        health/days.csv     your daily health, one line a day: heart rate (average, lowest,
        health/days.json    highest, readings), resting heart rate, HRV (SDNN, ms), steps,
                            sleep (hours in bed and asleep, quality, recovery), and the sources
                            (watch, phone, app) each came from that day
        health/samples/<kind>/<yyyy-mm>.csv
                            every sample your watches, phones and apps sent, a month a file:
                            start, end (local time with its UTC offset), value, unit, source,
                            device; kinds heart-rate, resting-heart-rate, walking-heart-rate,
                            hrv-sdnn, steps and sleep (its stage: in bed, asleep, awake, core,
                            deep, rem). The same samples are in data/health_blocks.json, packed
                            as the server keeps them (base64): that file is for a restore
        data/<table>.json   every row of yours in every table of the server's database, column by
                            column (times are milliseconds since 1970; binary columns are
                            base64; password, session and gateway token hashes are left out;
                            workout streams are in workouts/ instead)

        """
    }
}

extension AccountService {
    /// Deletes the account after checking the password: every row and blob of the user goes
    /// (friendships, requests and matches with others included), every session ends.
    public func deleteAccount(_ identity: Identity, password: String) async throws {
        guard let user = try await store.users.find(id: identity.user.id) else { throw AppError.notSignedIn }
        guard try await hasher.verify(password, hash: user.passwordHash) else {
            throw AppError.invalid("the password is wrong", field: "password")
        }
        // The raw uploads go with the account: at once, and (should this process die first)
        // at the next sweep of the import directory, which keeps only files an import names.
        let uploads = try await store.daily.importFiles(userID: user.id)
        // The matches go with the account (both sides' readings are the deleted user's data as
        // much as the opponent's): each opponent is told, once, how many of theirs went.
        var removed = [String: Int]()
        var offset = 0
        while offset < 10_000 {
            let page = try await store.matches.list(userID: user.id, limit: 200, offset: offset)
            for match in page {
                for other in [match.challengerID, match.opponentID, match.ghostOwnerID].compactMap({ $0 }) where other != user.id {
                    removed[other, default: 0] += 1
                }
            }
            if page.count < 200 { break }
            offset += 200
        }
        _ = try await store.deleteAccount(userID: user.id, username: user.username)
        DailyHealthService.removeUploads(uploads)
        sessionCache.forget(userID: user.id)
        revoker?.revoke(.user(id: user.id))
        for (other, count) in removed.sorted(by: { $0.key < $1.key }) {
            await inbox?.tell(
                other, kind: "account-deleted",
                text: "\(user.fullName) deleted their account: \(count == 1 ? "your match" : "your \(count) matches") with them went with it.",
                link: "/matches", actorID: nil)
        }
    }
}
