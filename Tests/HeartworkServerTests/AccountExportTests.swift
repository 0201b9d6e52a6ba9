import CompressNIO
import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import NIOCore
import Testing

/// GET /api/me/export and DELETE /api/me: the archive holds everything of the user's, and
/// after deletion nothing of them is left in any table of the store.
@Suite("Account export and deletion")
struct AccountExportTests {
    /// A ZIP read back by its central directory (APPNOTE 4.3.12), stored and deflated entries.
    struct ZipEntries {
        var files: [String: Data] = [:]
        var order: [String] = []

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            guard bytes.count >= 22,
                let end = stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 65_535), by: -1)
                    .first(where: { u32($0) == 0x0605_4B50 })
            else { throw ZipFailure("no end of central directory") }
            let count = u16(end + 10)
            var at = u32(end + 16)
            for _ in 0..<count {
                guard u32(at) == 0x0201_4B50 else { throw ZipFailure("bad central header at \(at)") }
                let method = u16(at + 10)
                let crc = UInt32(u32(at + 16))
                let compressed = u32(at + 20)
                let size = u32(at + 24)
                let nameLength = u16(at + 28)
                let extra = u16(at + 30)
                let comment = u16(at + 32)
                let local = u32(at + 42)
                let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
                guard u32(local) == 0x0403_4B50 else { throw ZipFailure("bad local header for \(name)") }
                let dataStart = local + 30 + u16(local + 26) + u16(local + 28)
                let raw = Array(bytes[dataStart..<(dataStart + compressed)])
                let content: [UInt8]
                if method == 8 {
                    var buffer = ByteBuffer(bytes: raw)
                    content = Array(try buffer.decompress(with: .deflate(), maxSize: 1 << 28).readableBytesView)
                } else {
                    guard method == 0 else { throw ZipFailure("method \(method)") }
                    content = raw
                }
                guard content.count == size, CRC32.checksum(content) == crc else { throw ZipFailure("\(name): size or CRC-32 does not match") }
                files[name] = Data(content)
                order.append(name)
                at += 46 + nameLength + extra + comment
            }
        }

        func json(_ name: String) throws -> Any {
            try JSONSerialization.jsonObject(with: try #require(files[name], "\(name) missing"))
        }
    }

    struct ZipFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func everyTableOfTheSchemaSaysWhoseItsRowsAre() async throws {
        try await ServerHarness.run { server in
            let named = Set(AccountData.tables.map(\.name)).union(AccountData.impersonal)
            let tables = try await server.store.tableNames()
            #expect(tables.count > 20)
            for table in tables {
                #expect(named.contains(table), "table \(table) is not in AccountData: say how its rows belong to a user")
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func theArchiveHoldsEverythingAndDeletionLeavesNothing(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let victim = try await AuthorizationTests().prepareVictim(server)
            let (friendID, friend) = try await server.signUp("bystander")
            let request = try await server.request(.post, "/api/friend-requests", token: friend, json: ["userID": victim.id])
            try await server.request(.post, "/api/friend-requests/\(request.json["id"] as? String ?? "")/accept", token: victim.token)
            try await server.completeProfile(friend)
            let friendsWorkout = try await server.upload(friend)
            let me = try #require(try await server.store.users.find(id: victim.id))

            // The archive.
            let export = try await server.request(.get, "/api/me/export", token: victim.token)
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "application/zip")
            #expect(export.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"heartwork-export-victim-") == true)
            let zip = try ZipEntries(export.body)
            let profile = try #require(try zip.json("profile.json") as? [String: Any])
            #expect(profile["username"] as? String == "victim" && profile["email"] as? String == "victim@example.org")
            #expect(profile["password_hash"] == nil)
            #expect(!zip.files.values.contains { String(decoding: $0, as: UTF8.self).contains(me.passwordHash) })
            let friends = try #require(try zip.json("friends.json") as? [[String: Any]])
            #expect(Set(friends.compactMap { $0["username"] as? String }) == ["victimsfriend", "bystander"])
            #expect(friends.allSatisfy { $0.keys.sorted() == ["fullName", "id", "username"] }, "friends: only what a friends list needs")
            let measurements = try #require(try zip.json("measurements.json") as? [[String: Any]])
            #expect(measurements.contains { $0["value"] as? Double == 77.7 })
            let workouts = zip.order.filter { $0.hasPrefix("workouts/") }
            // Two uploaded (600 s) and the run of the imported Apple Health day (45 min).
            #expect(workouts.filter { $0.hasSuffix(".json") }.count == 3 && workouts.filter { $0.hasSuffix(".fit") }.count == 3)
            for name in workouts {
                let format: ActivityFileFormat = name.hasSuffix(".fit") ? .fit : .json
                let back = try ActivityFiles.workout(Array(try #require(zip.files[name])), format: format)
                #expect(back.heartRate.count == 600 || back.heartRate.count == 2700, "\(name)")
            }
            let days = try #require(try zip.json("data/day_metrics.json") as? [[String: Any]])
            #expect(!days.isEmpty && days.allSatisfy { ($0["data"] as? String)?.contains("\"readiness\"") == true })
            // Daily health readable (issue 41): a line a day with its sources, and the samples.
            let today = CalendarDay(Date()).description
            let healthDays = try #require(try zip.json("health/days.json") as? [[String: Any]])
            let imported = try #require(healthDays.first { $0["date"] as? String == today }, "\(healthDays.map { $0["date"] ?? "" })")
            #expect((imported["heartRateAverage"] as? Double ?? 0) > 0 && (imported["steps"] as? Int ?? 0) > 0, "\(imported)")
            let daySources = try #require(imported["sources"] as? [String: [String]])
            #expect(daySources["heart-rate"]?.contains { $0.hasPrefix("Test Watch") } == true, "\(daySources)")
            let daysCSV = String(decoding: try #require(zip.files["health/days.csv"]), as: UTF8.self)
            #expect(daysCSV.hasPrefix("date,heart_rate_average,heart_rate_minimum,heart_rate_maximum,"))
            #expect(daysCSV.components(separatedBy: "\r\n").contains { $0.hasPrefix(today + ",") })
            let month = String(today.prefix(7))
            let heartRates = String(decoding: try #require(zip.files["health/samples/heart-rate/\(month).csv"], "\(zip.order.filter { $0.hasPrefix("health/") })"), as: UTF8.self)
            let lines = heartRates.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == "start,end,utc_offset_seconds,value,unit,source,device" && lines.count > 1)
            #expect(lines.dropFirst().allSatisfy { $0.contains(",bpm,Test Watch") }, "\(lines.prefix(3))")
            #expect(String(decoding: try #require(zip.files["README.txt"]), as: UTF8.self).contains("health/days.csv"))
            let imports = try #require(try zip.json("data/health_imports.json") as? [[String: Any]])
            #expect(imports.count == 1 && imports.allSatisfy { $0["file_path"] == nil })
            for table in AccountData.tables {
                #expect(zip.files["data/\(table.name).json"] != nil, "data/\(table.name).json")
            }
            let sessions = try #require(try zip.json("data/sessions.json") as? [[String: Any]])
            #expect(!sessions.isEmpty && sessions.allSatisfy { $0["token_hash"] == nil })
            let gateways = try #require(try zip.json("data/gateways.json") as? [[String: Any]])
            #expect(gateways.first?["name"] as? String == "victim-gateway-name" && gateways.first?["token_hash"] == nil)
            #expect((try zip.json("data/team_session_players.json") as? [Any]) != nil)
            #expect(zip.files.keys.contains("README.txt"))
            #expect(!zip.files.values.contains { String(decoding: $0, as: UTF8.self).contains(friendsWorkout) }, "a friend's workout is theirs")
            if case .sqlite = engine {
                // For CI's Tests/Reference/zip_crosscheck.py (Python's zipfile reads it).
                let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("artifacts/export")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try export.body.write(to: directory.appendingPathComponent("account.zip"))
            }
            #expect(try await server.request(.get, "/api/me/export").status == .unauthorized)

            // Deletion: the password again, or nothing happens.
            let wrong = try await server.request(.delete, "/api/me", token: victim.token, json: ["password": "not it"])
            #expect(wrong.status == .unprocessableContent && wrong.problemField == "password")
            let missing = try await server.request(.delete, "/api/me", token: victim.token, json: [:])
            #expect(missing.status != .noContent && missing.problemField == "password")
            #expect(try await server.request(.get, "/api/me", token: victim.token).status == .ok)
            let other = try await server.logIn("victim")
            let deleted = try await server.request(.delete, "/api/me", token: victim.token, json: ["password": "correct horse 1"])
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await server.request(.get, "/api/me", token: victim.token).status == .unauthorized)
            #expect(try await server.request(.get, "/api/me", token: other).status == .unauthorized, "every session ends")
            #expect(try await server.request(.post, "/api/auth/login", json: ["username": "victim", "password": "correct horse 1"]).status == .unauthorized)

            // Nothing of the user in any text column of any table.
            let needles = [
                victim.id, "victim@example.org", "victim-private-status", "victim-gateway-name", "victim-team-name",
                "victim-player-name", "victim-strap-address", victim.privateWorkout, victim.sharedWorkout, victim.match,
            ]
            for table in try await server.store.tableNames() {
                for column in try await server.store.columns(of: table) where AccountDataKind.isText(column.type) {
                    for needle in needles {
                        let hits = try await server.store.count(table: table, column: column.name, containing: needle)
                        #expect(hits == 0, "\(table).\(column.name) still holds \(needle)")
                    }
                    #expect(try await server.store.count(table: table, column: column.name, equalTo: "victim") == 0, "\(table).\(column.name) = victim")
                }
            }
            // The others are intact: the friend keeps their account and workout, without the friendship.
            #expect(try await server.request(.get, "/api/workouts/\(friendsWorkout)", token: friend).status == .ok)
            let list = try await server.request(.get, "/api/friends", token: friend)
            #expect(list.status == .ok && !list.text.contains(victim.id))
            _ = friendID
        }
    }
}

enum AccountDataKind {
    static func isText(_ type: String) -> Bool {
        let type = type.lowercased()
        return type.contains("text") || type.contains("char")
    }
}
