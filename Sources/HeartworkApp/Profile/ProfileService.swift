import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// The signed-in user's profile, settings, photo and measurement histories. Every edit
/// writes only the fields it changes, in one transaction with the rules that span fields,
/// so two edits at once never undo each other.
public struct ProfileService: Sendable {
    let store: HeartworkStore
    let sessionCache: SessionCache
    let workouts: WorkoutService

    public static let maximumPhotoBytes = 5 * 1024 * 1024
    public static let maximumSharedWorkouts = 0...500
    static let heightMeters = 0.5...2.6
    /// How far ahead of the server's clock a measurement may be dated (clocks differ a little).
    static let clockSkew: TimeInterval = 300

    public func profile(of user: UserRecord, now: Date = Date()) async throws -> Profile {
        let weight = try await store.measurements.latest(userID: user.id, kind: .weight, atOrBefore: nil)
        let resting = try await store.measurements.latest(userID: user.id, kind: .restingHeartRate, atOrBefore: nil)
        return Profile(user: user, weightKilograms: weight?.value, restingHeartRate: resting?.value, now: now)
    }

    public func profile(userID: String, now: Date = Date()) async throws -> Profile {
        guard let user = try await store.users.find(id: userID) else { throw AppError.notFound("user") }
        return try await profile(of: user, now: now)
    }

    /// Checks every field (reporting all mistakes at once), writes the changed ones, and then
    /// queues the completion of what earlier workouts' snapshots lacked (see
    /// `WorkoutService.completeSnapshots`).
    public func update(userID: String, _ changes: ProfileChanges, now: Date = Date()) async throws -> Profile {
        let checked = try check(changes, now: now)
        let user = try await apply(UserChanges(profile: checked), userID: userID) { user throws(AppError) in
            if user.maxHeartRateSource == .measured && user.measuredMaxHeartRate == nil {
                throw AppError.invalid("the measured method needs measuredMaxHeartRate", field: "measuredMaxHeartRate")
            }
        }
        // What a workout's snapshot takes from the profile changed: earlier workouts are
        // completed in the background (the edit itself answers at once, whatever the history).
        if checked.dateOfBirth != nil || checked.sex != nil || checked.maxHeartRateSource != nil || checked.measuredMaxHeartRate != nil {
            try await workouts.queueSnapshotCompletion(userID: user.id, now: now)
        }
        return try await profile(of: user, now: now)
    }

    /// The profile page's one form: the profile's fields and, when typed, today's weight and
    /// resting heart rate. Every mistake in any of them is reported at once and then nothing
    /// is written; otherwise all of it is saved.
    public func save(
        userID: String, _ changes: ProfileChanges, weightKilograms: Double?, restingHeartRate: Double?,
        weightField: String = "weight", restingField: String = "bpm", now: Date = Date()
    ) async throws -> Profile {
        var errors = [AppError.FieldError]()
        do { _ = try check(changes, now: now) } catch { errors += error.allFieldErrors }
        for (kind, value, field) in [(MeasurementKind.weight, weightKilograms, weightField), (.restingHeartRate, restingHeartRate, restingField)] {
            guard let value else { continue }
            do { try Self.checkMeasurement(kind, value, field: field) } catch { errors += error.allFieldErrors }
        }
        if !errors.isEmpty { throw AppError.invalid(errors) }
        var profile = try await update(userID: userID, changes, now: now)
        if let weightKilograms {
            _ = try await addMeasurement(userID: userID, kind: .weight, value: weightKilograms, measuredAt: nil, valueField: weightField, now: now)
        }
        if let restingHeartRate {
            _ = try await addMeasurement(userID: userID, kind: .restingHeartRate, value: restingHeartRate, measuredAt: nil, valueField: restingField, now: now)
        }
        if weightKilograms != nil || restingHeartRate != nil { profile = try await self.profile(userID: userID, now: now) }
        return profile
    }

    /// The edit with its text trimmed, or every mistake in it at once (nothing is written).
    public func check(_ changes: ProfileChanges, now: Date = Date()) throws(AppError) -> ProfileChanges {
        var checked = changes
        var validation = Validation()
        if let fullName = changes.fullName {
            checked.fullName = validation.check { () throws(AppError) in
                try TextRules.line(fullName, field: "fullName", what: "the full name", length: 1...100)
            }
        }
        if let email = changes.email {
            checked.email = validation.check { () throws(AppError) in try EmailAddress.checked(email, field: "email") }
        }
        if let status = changes.status {
            checked.status = validation.check { () throws(AppError) in try TextRules.line(status, field: "status", what: "a status", length: 0...280) }
        }
        if let day = changes.dateOfBirth?.value {
            let age = day.wholeYears(until: CalendarDay(now))
            validation.check { () throws(AppError) in
                guard day < CalendarDay(now), PhysiologicalLimits.ageYears.contains(Double(age)) else {
                    throw AppError.invalid("\(day) is not a birth date for an age of 10–100 years", field: "dateOfBirth")
                }
            }
        }
        if let height = changes.heightMeters?.value, !Self.heightMeters.contains(height) {
            validation.check { () throws(AppError) in throw AppError.invalid("height is in metres, 0.5–2.6", field: "heightMeters") }
        }
        if let measured = changes.measuredMaxHeartRate?.value, !PhysiologicalLimits.maximumHeartRate.contains(measured) {
            validation.check { () throws(AppError) in throw AppError.invalid("a measured maximum heart rate is 100–250 bpm", field: "measuredMaxHeartRate") }
        }
        if let zone = changes.timeZone?.value {
            checked.timeZone = validation.check { () throws(AppError) in .set(try TimeZones.checked(zone, field: "timeZone")) }
        }
        try validation.finish()
        return checked
    }

    public func updateSettings(userID: String, _ changes: SettingsChanges) async throws -> UserRecord {
        if let maximum = changes.maxSharedWorkouts, !Self.maximumSharedWorkouts.contains(maximum) {
            throw AppError.invalid("keep 0–500 shared workouts", field: "maxSharedWorkouts")
        }
        return try await apply(UserChanges(settings: changes), userID: userID) { _ throws(AppError) in }
    }

    private func apply(_ changes: UserChanges, userID: String, check: @escaping @Sendable (UserRecord) throws(AppError) -> Void) async throws -> UserRecord {
        guard let user = try await store.users.update(userID: userID, changes, check: { user in try check(user) }) else {
            throw AppError.notFound("user")
        }
        sessionCache.forget(userID: userID)
        return user
    }

    // MARK: Photo

    public func setPhoto(userID: String, bytes: [UInt8]) async throws {
        let photo = try await PhotoRules.stored(bytes, of: "a profile")
        try await store.users.setPhoto(userID: userID, contentType: photo.contentType, data: Data(photo.data))
        sessionCache.forget(userID: userID)
    }

    /// The user's own workouts shared with friends, newest first: what their friends see on
    /// their profile (HeartMate F6 and F30: the profile shows the uploaded workouts).
    public func sharedWorkouts(of user: UserRecord, page: Page) async throws -> [WorkoutRecord] {
        try await store.workouts.list(userID: user.id, from: nil, to: nil, sharedOnly: true, page: page)
    }

    /// Your own photo or a friend's; anyone else's is "not found".
    public func photo(of userID: String, viewer: UserRecord) async throws -> (contentType: String, data: Data) {
        let visible = userID == viewer.id ? true : try await store.friends.areFriends(viewer.id, userID)
        guard visible, let photo = try await store.users.photo(userID: userID) else { throw AppError.notFound("photo") }
        return photo
    }

    // MARK: Measurements

    public func measurements(userID: String, kind: MeasurementKind) async throws -> [MeasurementRecord] {
        try await store.measurements.list(userID: userID, kind: kind)
    }

    /// Adds a dated value (now, unless `measuredAt` says when; never in the future). A value the
    /// user types wins over an imported one of the same day: the imported values of its kind
    /// measured on its local day (in the profile's time zone) are deleted in the same
    /// transaction, whatever their time of day.
    /// - Parameter valueField: what the caller's input calls the value, for the error.
    public func addMeasurement(
        userID: String, kind: MeasurementKind, value: Double, measuredAt: Date?, valueField: String = "value", now: Date = Date()
    ) async throws -> MeasurementRecord {
        try Self.checkMeasurement(kind, value, field: valueField)
        let when = measuredAt ?? now
        guard when <= now.addingTimeInterval(Self.clockSkew) else {
            throw AppError.invalid("a measurement cannot be dated in the future", field: "measuredAt")
        }
        guard when >= CalendarDay(year: 1900, month: 1, day: 1)?.start() ?? .distantPast else {
            throw AppError.invalid("a measurement cannot be dated before 1900", field: "measuredAt")
        }
        let record = MeasurementRecord(kind: kind, measuredAt: when, value: value)
        let timeZone = try await store.users.find(id: userID)?.timeZone
        _ = try await store.measurements.addTyped(userID: userID, record, replacingImportedIn: Self.localDay(of: when, timeZone: timeZone))
        try await workouts.queueSnapshotCompletion(userID: userID, now: now)
        return record
    }

    /// The local day `date` falls on in the time zone (UTC when the profile names none), from
    /// its midnight to the next (23 or 25 hours across a change to or from summer time).
    static func localDay(of date: Date, timeZone: String?) -> Range<Date> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZones.zone(timeZone)
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return start..<max(end, start.addingTimeInterval(1))
    }

    static func checkMeasurement(_ kind: MeasurementKind, _ value: Double, field: String) throws(AppError) {
        guard value.isFinite, kind.plausibleRange.contains(value) else {
            throw AppError.invalid("a \(kind.displayName) is \(kind.plausibleRange.formattedForMessage) \(kind.unit)", field: field)
        }
    }

    public func deleteMeasurement(userID: String, kind: MeasurementKind, id: String) async throws {
        guard try await store.measurements.delete(id: id, userID: userID, kind: kind) else { throw AppError.notFound("measurement") }
    }
}
