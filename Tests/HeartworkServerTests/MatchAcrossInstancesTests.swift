import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Testing

@testable import HeartworkApp

/// A match whose players are connected to two instances on one PostgreSQL database (issue
/// 10): the first to enter claims the room (it lives in that instance's memory), the other's
/// player reaches it over the live bus — readings in, the room's frames out — and the score
/// is the offline engine's, second for second. Rooms run with MatchTests' seconds (real ones:
/// shorter, the full suite's load on a 2-core machine delayed readings past their 3 s), and
/// `.keepsTime`: never beside the tests that load the machine on purpose.
@Suite("Matches across instances", .timeLimit(.minutes(10)), .keepsTime)
struct MatchAcrossInstancesTests {
    static func drive(_ room: any MatchRoomHandle, _ side: Competitor, _ series: [Double]) async -> [MatchMessage] {
        let (id, messages) = await room.connect(side)
        var collected = [MatchMessage]()
        var sender: Task<Void, Never>?
        for await message in messages {
            collected.append(message)
            if case .start(let at, _, _, let length) = message, sender == nil {
                sender = Task {
                    for (second, bpm) in series.enumerated() {
                        let due = Int(at) + second * length + length / 10
                        let wait = due - Int(Date().timeIntervalSince1970 * 1000)
                        if wait > 0 { try? await Task.sleep(for: .milliseconds(wait)) }
                        await room.reading(side, second: second, beatsPerMinute: bpm, rrMilliseconds: [], source: .strap)
                    }
                }
            }
            if case .end = message { break }
        }
        sender?.cancel()
        await room.disconnect(side, id: id)
        return collected
    }

    static func play(_ storeA: HeartworkStore, _ storeB: HeartworkStore) async throws {
        var settings = HeartworkServices.Settings(passwordHashCost: 4, matchSecondMilliseconds: MatchTests.second)
        settings.matchLateSeconds = MatchTests.lateSeconds
        let a = try await HeartworkServices(store: storeA, settings: settings, logger: TestDatabase.logger)
        let b = try await HeartworkServices(store: storeB, settings: settings, logger: TestDatabase.logger)
        let listeners = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await a.bus.run() }
                group.addTask { try? await b.bus.run() }
            }
        }
        defer { listeners.cancel() }
        await a.bus.waitUntilListening()
        await b.bus.waitUntilListening()

        var users = [UserRecord]()
        for name in ["ann", "bob"] {
            let user = try await a.accounts.register(Registration(username: name, fullName: name.capitalized, email: "\(name)@example.org", password: "\(name) password 1"))
            var changes = ProfileChanges()
            changes.dateOfBirth = .set(try #require(CalendarDay(year: 1992, month: 2, day: 22)))
            _ = try await a.profiles.update(userID: user.id, changes)
            _ = try await a.profiles.addMeasurement(userID: user.id, kind: .restingHeartRate, value: 65, measuredAt: Date(timeIntervalSince1970: 1_767_225_600))
            users.append(try #require(try await storeA.users.find(id: user.id)))
        }
        let (ann, bob) = (users[0], users[1])
        _ = try await a.friends.request(from: ann, to: bob.id)
        _ = try await b.friends.request(from: bob, to: ann.id)
        let match = try await a.matches.invite(bob.id, minutes: 1, by: ann)
        _ = try await b.matches.accept(match.id, by: bob)

        // Ann enters on A (which claims the room), Bob on B (which reaches it over the bus).
        let annJoin = try await a.matches.join(match.id, as: ann)
        let bobJoin = try await b.matches.join(match.id, as: bob)
        #expect(annJoin.room is MatchRoom)
        #expect(bobJoin.room is RemoteMatchRoom)
        let annSeries = MatchTests.annSeries
        let bobSeries = MatchTests.bobSeries
        let annRoom = try #require(annJoin.room)
        let bobRoom = try #require(bobJoin.room)
        async let annFrames = Self.drive(annRoom, .a, annSeries)
        async let bobFrames = Self.drive(bobRoom, .b, bobSeries)
        let (annSaw, bobSaw) = await (annFrames, bobFrames)

        let offline = CompetitionEngine.evaluate(
            a: annSeries.map { $0 > 0 ? $0 : nil }, b: bobSeries.map { $0 > 0 ? $0 : nil },
            profileA: try #require(try await a.matches.anchors(of: ann, now: Date(), field: nil, whose: "").zoneProfile),
            profileB: try #require(try await a.matches.anchors(of: bob, now: Date(), field: nil, whose: "").zoneProfile))
        let stored = try #require(try await b.matches.match(match.id, for: bob).result)
        #expect(stored.reason == "time" && stored.secondsPlayed == 60)
        #expect(stored.scoreA == offline.a.score && stored.scoreB == offline.b.score)
        // Bob, on the other instance, got every second's state and every event, in order.
        let bobStates = bobSaw.compactMap { message -> Int? in if case .state(let second, _, _) = message { second } else { nil } }
        #expect(bobStates == Array(0..<60))
        let bobEvents = bobSaw.compactMap { message -> String? in if case .event(_, _, _, _, let text) = message { text } else { nil } }
        #expect(bobEvents == offline.events.map { $0.announcement(for: .b) })
        #expect(bobSaw.last == .end(matchID: match.id) && annSaw.last == .end(matchID: match.id))
        if case .state(_, let you, let opponent)? = bobSaw.last(where: { if case .state = $0 { true } else { false } }) {
            #expect(you.score == offline.b.score && opponent.score == offline.a.score && opponent.beatsPerMinute == nil)
        } else {
            Issue.record("Bob saw no state")
        }
    }

    @Test func playersOnTwoInstancesPlayOneMatch() async throws {
        guard let url = TestDatabase.postgresURL else { return }
        try await TestDatabase.postgres(url: url).withFreshLocation { location in
            let storeA = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let storeB = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            do {
                try await Self.play(storeA, storeB)
            } catch {
                try? await storeA.shutdown()
                try? await storeB.shutdown()
                throw error
            }
            try await storeA.shutdown()
            try await storeB.shutdown()
        }
    }
}
