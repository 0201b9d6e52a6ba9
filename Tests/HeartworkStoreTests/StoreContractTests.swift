import Foundation
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Testing

/// One contract, both engines: every repository must behave the same on SQLite and PostgreSQL.
@Suite("Store contract")
struct StoreContractTests {
    static let engines = TestDatabase.all

    private func user(_ name: String, fullName: String? = nil) -> UserRecord {
        UserRecord(username: name, fullName: fullName ?? name.capitalized + " Runner", email: "\(name.lowercased())@example.org", passwordHash: "$2b$04$hash")
    }

    private func workout(of userID: String, startedAt: Date, shared: Bool = false) -> WorkoutRecord {
        WorkoutRecord(
            userID: userID, sport: .running, startedAt: startedAt, indoor: false,
            metrics: WorkoutMetrics(
                durationSeconds: 60, averageHeartRate: 150, minimumHeartRate: 120, maximumHeartRate: 170,
                secondsInZones: [10, 20, 30, 0, 0], kilocalories: 12, distanceMeters: 250),
            profile: ProfileSnapshot(ageYears: 24, restingHeartRate: 65, maximumHeartRate: 190.82, maximumHeartRateSource: .gellish, weightKilograms: 70, sex: .male),
            rrCount: 0, trackCount: 0, shared: shared, sharedAt: shared ? startedAt : nil)
    }

    @Test(arguments: engines)
    func migrationsRunOnceAndAgainIsANoOp(engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            try await first.users.create(user("ada"))
            try await first.shutdown()
            let second = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            #expect(try await second.users.find(username: "ada") != nil)
            try await second.shutdown()
        }
    }

    @Test(arguments: engines)
    func usernamesAreUniqueIgnoringCase(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            try await store.users.create(user("Ada"))
            await #expect(throws: StoreError.conflict("the username 'ADA' is taken")) { try await store.users.create(user("ADA")) }
            let found = try #require(try await store.users.find(username: "aDa"))
            #expect(found.username == "Ada")
            #expect(found.maxSharedWorkouts == 20 && !found.autoShareWorkouts && !found.hasPhoto)
        }
    }

    @Test(arguments: engines)
    func profileUpdatesPhotosAndHistories(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let ada = user("ada")
            try await store.users.create(ada)
            var profile = ProfileChanges()
            profile.status = "Ready to challenge everyone"
            profile.dateOfBirth = .set(CalendarDay(year: 1992, month: 2, day: 22)!)
            profile.sex = .set(.female)
            profile.heightMeters = .set(1.68)
            profile.maxHeartRateSource = .measured
            profile.measuredMaxHeartRate = .set(188)
            let changes = UserChanges(profile: profile, settings: SettingsChanges(autoShareWorkouts: true, maxSharedWorkouts: 5))
            let updated = try await store.users.update(userID: ada.id, changes) { _ in }
            #expect(updated?.status == "Ready to challenge everyone")
            // A check that refuses leaves the row as it was.
            var refusedProfile = ProfileChanges()
            refusedProfile.status = "never stored"
            let refused = UserChanges(profile: refusedProfile)
            await #expect(throws: StoreError.self) {
                _ = try await store.users.update(userID: ada.id, refused) { _ in throw StoreError.conflict("refused") }
            }
            #expect(try await store.users.update(userID: "no-such-user", refused) { _ in } == nil)
            let photo = Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255])
            try await store.users.setPhoto(userID: ada.id, contentType: "image/png", data: photo)
            try await store.users.setPhoto(userID: ada.id, contentType: "image/png", data: photo + Data([7]))
            let reloaded = try #require(try await store.users.find(id: ada.id))
            #expect(reloaded.status == "Ready to challenge everyone" && reloaded.dateOfBirth?.description == "1992-02-22" && reloaded.sex == .female)
            #expect(reloaded.maxHeartRateSource == .measured && reloaded.autoShareWorkouts)
            #expect(reloaded.heightMeters == 1.68 && reloaded.measuredMaxHeartRate == 188 && reloaded.maxSharedWorkouts == 5)
            #expect(reloaded.hasPhoto)
            #expect(try await store.users.photo(userID: ada.id)?.data == photo + Data([7]))
            let day = Date(timeIntervalSince1970: 1_700_000_000)
            try await store.measurements.add(userID: ada.id, MeasurementRecord(kind: .weight, measuredAt: day.addingTimeInterval(86_400), value: 61.2))
            try await store.measurements.add(userID: ada.id, MeasurementRecord(kind: .weight, measuredAt: day, value: 61.9))
            #expect(try await store.measurements.list(userID: ada.id, kind: .weight).map(\.value) == [61.9, 61.2])
            #expect(try await store.measurements.latest(userID: ada.id, kind: .weight, atOrBefore: nil)?.value == 61.2)
            #expect(try await store.measurements.latest(userID: ada.id, kind: .weight, atOrBefore: day.addingTimeInterval(3600))?.value == 61.9)
            #expect(try await store.measurements.latest(userID: ada.id, kind: .weight, atOrBefore: day.addingTimeInterval(-1)) == nil)
            let resting = MeasurementRecord(kind: .restingHeartRate, measuredAt: day, value: 52.5)
            try await store.measurements.add(userID: ada.id, resting)
            #expect(try await store.measurements.list(userID: ada.id, kind: .restingHeartRate).first?.value == 52.5)
            // Deleting needs the owner and the kind.
            #expect(try await store.measurements.delete(id: resting.id, userID: ada.id, kind: .weight) == false)
            #expect(try await store.measurements.delete(id: resting.id, userID: "someone-else", kind: .restingHeartRate) == false)
            #expect(try await store.measurements.delete(id: resting.id, userID: ada.id, kind: .restingHeartRate))
            #expect(try await store.measurements.list(userID: ada.id, kind: .restingHeartRate).isEmpty)
        }
    }

    @Test(arguments: engines)
    func searchMatchesUsernameOrNameCaseInsensitivelyAndPages(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let me = user("me")
            try await store.users.create(me)
            for (name, full) in [("jAppleseed", "John Appleseed"), ("annie", "Annie Apple"), ("bob", "Bob Smith"), ("pct_user", "Percent Sign")] {
                try await store.users.create(user(name, fullName: full))
            }
            #expect(try await store.users.search("APPLE", excluding: me.id, page: Page()).map(\.username) == ["annie", "jAppleseed"])
            #expect(try await store.users.search("smi", excluding: me.id, page: Page()).map(\.username) == ["bob"])
            #expect(try await store.users.search("_", excluding: me.id, page: Page()).map(\.username) == ["pct_user"])
            #expect(try await store.users.search("me", excluding: me.id, page: Page()).isEmpty)
            #expect(try await store.users.search("", excluding: me.id, page: Page(limit: 2, offset: 2)).map(\.username) == ["jAppleseed", "pct_user"])
        }
    }

    @Test(arguments: engines)
    func sessionsExpireAndRevoke(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let ada = user("ada")
            try await store.users.create(ada)
            let now = Date()
            for token in ["a", "b", "c"] {
                try await store.sessions.create(
                    SessionRecord(tokenHash: token, userID: ada.id, kind: .api, csrfToken: nil, createdAt: now, expiresAt: now.addingTimeInterval(30 * 86_400)))
            }
            #expect(try await store.sessions.find(tokenHash: "a")?.isValid(at: now) == true)
            let joined = try #require(try await store.sessions.findWithUser(tokenHash: "a"))
            #expect(joined.user.id == ada.id && joined.session.tokenHash == "a" && joined.session.kind == .api)
            #expect(try await store.sessions.findWithUser(tokenHash: "nope") == nil)
            #expect(try await store.sessions.find(tokenHash: "a")?.isValid(at: now.addingTimeInterval(31 * 86_400)) == false)
            try await store.sessions.revoke(tokenHash: "a", at: now)
            #expect(try await store.sessions.find(tokenHash: "a")?.isValid(at: now) == false)
            try await store.sessions.revokeAll(userID: ada.id, keeping: "c", at: now)
            #expect(try await store.sessions.find(tokenHash: "b")?.isValid(at: now) == false)
            #expect(try await store.sessions.find(tokenHash: "c")?.isValid(at: now) == true)
            // Attempts are recorded as failures up front; refusing records nothing; forgiving clears.
            try await store.loginThrottle.begin(attemptID: "old", scopes: ["pair:ada", "address:a"], since: now, at: now.addingTimeInterval(-3600)) { _ in }
            try await store.loginThrottle.begin(attemptID: "one", scopes: ["pair:ada", "address:a"], since: now, at: now) { histories in
                #expect(histories["pair:ada"] == ThrottleHistory(failures: 0, latest: nil))  // the old one is outside the window
            }
            await #expect(throws: StoreError.self) {
                try await store.loginThrottle.begin(attemptID: "two", scopes: ["pair:ada"], since: now.addingTimeInterval(-900), at: now) { histories in
                    #expect(histories["pair:ada"]?.failures == 1)
                    throw StoreError.conflict("refused")
                }
            }
            #expect(try await store.loginThrottle.history(scope: "pair:ada", since: now.addingTimeInterval(-900)).failures == 1)
            #expect(try await store.loginThrottle.history(scope: "pair:ada", since: .distantPast).failures == 2)
            try await store.loginThrottle.forgive(attemptID: "one", clearing: "pair:ada")
            #expect(try await store.loginThrottle.history(scope: "pair:ada", since: .distantPast).failures == 0)
            #expect(try await store.loginThrottle.history(scope: "address:a", since: .distantPast).failures == 1)  // the old attempt's
            try await store.loginThrottle.deleteFailures(before: now)
            #expect(try await store.loginThrottle.history(scope: "address:a", since: .distantPast).failures == 0)
        }
    }

    @Test(arguments: engines)
    func friendRequestsBecomeSymmetricFriendships(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let (ada, bob, cy) = (user("ada"), user("bob"), user("cy"))
            for person in [ada, bob, cy] { try await store.users.create(person) }
            let request = try await store.friends.createRequest(from: ada.id, to: bob.id, at: Date())
            #expect(try await store.friends.pendingRequest(from: ada.id, to: bob.id)?.id == request.id)
            #expect(try await store.friends.incoming(userID: bob.id).map(\.id) == [request.id])
            #expect(try await store.friends.outgoing(userID: ada.id).map(\.id) == [request.id])
            try await store.friends.answer(requestID: request.id, accept: true, at: Date())
            #expect(try await store.friends.areFriends(ada.id, bob.id))
            #expect(try await store.friends.areFriends(bob.id, ada.id))
            #expect(try await store.friends.friends(of: bob.id).map(\.username) == ["ada"])
            await #expect(throws: StoreError.conflict("the friend request was already answered")) {
                try await store.friends.answer(requestID: request.id, accept: false, at: Date())
            }
            let denied = try await store.friends.createRequest(from: cy.id, to: ada.id, at: Date())
            try await store.friends.answer(requestID: denied.id, accept: false, at: Date())
            #expect(try await !store.friends.areFriends(ada.id, cy.id))
            try await store.friends.remove(bob.id, ada.id)
            #expect(try await !store.friends.areFriends(ada.id, bob.id))
            #expect(try await !store.friends.areFriends(bob.id, ada.id))
        }
    }

    @Test(arguments: engines)
    func workoutsWithStreamsRoundTrip(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let ada = user("ada")
            try await store.users.create(ada)
            let start = Date(timeIntervalSince1970: 1_763_700_000)
            let track = try (0..<100).map { try GeoPoint(latitudeDegrees: 48.2 + Double($0) * 1e-4, longitudeDegrees: 16.37, elevationMeters: 180.5, timeSeconds: Double($0)) }
            let streams = WorkoutStreams(heartRate: [120, nil, 125, 250], rrIntervalsMilliseconds: [1000, 781.25], track: track)
            let record = workout(of: ada.id, startedAt: start)
            try await store.workouts.insert(record, streams: streams)
            let found = try #require(try await store.workouts.find(id: record.id))
            #expect(found == record || found.startedAt == record.startedAt)
            #expect(found.metrics.secondsInZones == [10, 20, 30, 0, 0] && found.profile.sex == .male && found.profile.ageYears == 24)
            let loaded = try #require(try await store.workouts.streams(workoutID: record.id))
            #expect(loaded.heartRate == [120, nil, 125, 250])
            #expect(loaded.rrIntervalsMilliseconds == [1000, 781.25])
            #expect(loaded.track.count == 100)
            #expect(zip(loaded.track, track).allSatisfy { abs($0.latitudeDegrees - $1.latitudeDegrees) < 1e-7 && $0.elevationMeters == 180.5 && $0.timeSeconds == $1.timeSeconds })
        }
    }

    @Test(arguments: engines)
    func listingIsNewestFirstPagedAndFilteredByDate(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let (ada, bob) = (user("ada"), user("bob"))
            try await store.users.create(ada)
            try await store.users.create(bob)
            let base = Date(timeIntervalSince1970: 1_763_000_000)
            for day in 0..<30 {
                try await store.workouts.insert(workout(of: ada.id, startedAt: base.addingTimeInterval(Double(day) * 86_400)), streams: WorkoutStreams(heartRate: [100]))
            }
            try await store.workouts.insert(workout(of: bob.id, startedAt: base), streams: WorkoutStreams(heartRate: [100]))
            let first = try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: false, page: Page(limit: 20))
            #expect(first.count == 20)
            #expect(first.first?.startedAt == base.addingTimeInterval(29 * 86_400))
            #expect(zip(first, first.dropFirst()).allSatisfy { $0.startedAt > $1.startedAt })
            #expect(try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: false, page: Page(limit: 20, offset: 20)).count == 10)
            let week = try await store.workouts.list(
                userID: ada.id, from: base.addingTimeInterval(7 * 86_400), to: base.addingTimeInterval(14 * 86_400), sharedOnly: false, page: Page())
            #expect(week.count == 7)
            #expect(try await store.workouts.count(userID: ada.id) == 30)
            #expect(try await store.workouts.list(userID: bob.id, from: nil, to: nil, sharedOnly: false, page: Page()).count == 1)
        }
    }

    /// SQLite keeps lists in memory: every write must still show at once.
    @Test(arguments: engines)
    func listsSeeEveryWriteAtOnce(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let ada = user("ada")
            try await store.users.create(ada)
            func ids(_ sharedOnly: Bool = false) async throws -> [String] {
                try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: sharedOnly, page: Page()).map(\.id)
            }
            #expect(try await ids().isEmpty)
            let first = workout(of: ada.id, startedAt: Date(timeIntervalSince1970: 1_763_000_000))
            try await store.workouts.insert(first, streams: WorkoutStreams(heartRate: [100]))
            #expect(try await ids() == [first.id])
            #expect(try await ids(true).isEmpty)
            _ = try await store.workouts.setShared(id: first.id, userID: ada.id, shared: true, at: Date())
            #expect(try await ids(true) == [first.id])
            #expect(try await store.workouts.delete(id: first.id, userID: ada.id))
            #expect(try await ids().isEmpty)
            #expect(try await ids(true).isEmpty)
        }
    }

    /// Reads racing writes must never leave an old list behind in the cache.
    @Test(arguments: engines)
    func listsStayExactUnderConcurrentWrites(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let ada = user("ada")
            try await store.users.create(ada)
            let base = Date(timeIntervalSince1970: 1_763_000_000)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        if index % 2 == 0 {
                            try await store.workouts.insert(
                                workout(of: ada.id, startedAt: base.addingTimeInterval(Double(index) * 60)),
                                streams: WorkoutStreams(heartRate: [100]))
                        } else {
                            _ = try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: false, page: Page(limit: 100))
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: false, page: Page(limit: 100)).count == 20)
        }
    }

    @Test(arguments: engines)
    func sharingCapUnsharesTheOldestNeverDeletes(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            var ada = user("ada")
            ada.maxSharedWorkouts = 3  // the cap is read from the owner's row
            try await store.users.create(ada)
            let base = Date(timeIntervalSince1970: 1_763_000_000)
            var ids = [String]()
            for day in 0..<5 {
                let record = workout(of: ada.id, startedAt: base.addingTimeInterval(Double(day) * 86_400), shared: true)
                ids.append(record.id)
                try await store.workouts.insert(record, streams: WorkoutStreams(heartRate: [100]))
            }
            let shared = try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: true, page: Page())
            #expect(Set(shared.map(\.id)) == Set(ids.suffix(3)))
            #expect(try await store.workouts.count(userID: ada.id) == 5)
            // Sharing an old one again pushes the oldest of the others out.
            // The oldest of all would be unshared again at once: refused, with the cap.
            await #expect(throws: StoreError.limitReached(3)) {
                _ = try await store.workouts.setShared(id: ids[0], userID: ada.id, shared: true, at: Date())
            }
            _ = try await store.workouts.setShared(id: ids[4], userID: ada.id, shared: false, at: Date())
            #expect(try await store.workouts.list(userID: ada.id, from: nil, to: nil, sharedOnly: true, page: Page()).count == 2)
            #expect(try await store.workouts.setShared(id: ids[1], userID: "someone-else", shared: true, at: Date()) == nil)
        }
    }

    @Test(arguments: engines)
    func deleteOnlyByTheOwnerAndAFailedInsertLeavesNothing(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let (ada, bob) = (user("ada"), user("bob"))
            try await store.users.create(ada)
            try await store.users.create(bob)
            let record = workout(of: ada.id, startedAt: Date())
            try await store.workouts.insert(record, streams: WorkoutStreams(heartRate: [100]))
            #expect(try await store.workouts.delete(id: record.id, userID: bob.id) == false)
            #expect(try await store.workouts.delete(id: record.id, userID: ada.id) == true)
            #expect(try await store.workouts.find(id: record.id) == nil)
            #expect(try await store.workouts.streams(workoutID: record.id) == nil)
            // The same id twice: the second insert fails as a whole, streams included.
            let twice = workout(of: ada.id, startedAt: Date())
            try await store.workouts.insert(twice, streams: WorkoutStreams(heartRate: [100]))
            await #expect(throws: (any Error).self) {
                try await store.workouts.insert(twice, streams: WorkoutStreams(heartRate: [200, 201]))
            }
            #expect(try await store.workouts.streams(workoutID: twice.id)?.heartRate == [100])
            #expect(try await store.workouts.count(userID: ada.id) == 1)
        }
    }
}
