import Foundation
import HeartworkCore
import HeartworkStore

/// RISE's "Time Slept" (seed 004 F2; issue 25): the user sets a night's bed and wake time when
/// the recorded ones are wrong, and recovery follows; clearing them goes back to the recorded
/// night (the seed's "Refresh ... back to the original queried hours"). Like the rating, a
/// night can be changed from 18:00 the evening before its day until the day is over.
extension DailyHealthService {
    /// Checks that the night before `day` can still be changed (the seed: "Once a day has past,
    /// edits cannot be made"); answers the UTC offset the day is cut at.
    func editableNight(_ day: CalendarDay, for user: UserRecord, now: Date, what: String, field: String) async throws -> Int {
        let stored = try await store.daily.day(userID: user.id, day)
        let offset = stored?.utcOffsetSeconds ?? Self.offset(of: [], day: day, user: user)
        guard now < day.adding(days: 1).start(utcOffsetSeconds: offset) else {
            throw AppError.conflict("\(day) is over: its \(what) can no longer be changed", field: field)
        }
        guard now >= day.start(utcOffsetSeconds: offset).addingTimeInterval(-6 * 3600) else {
            throw AppError.invalid("\(day) has not begun: set a night once it is over", field: field)
        }
        return offset
    }

    /// Sets the bed and wake time of the night before `day` (minutes after local midnight: the
    /// wake time on the day, before 18:00; the bed time the last time at its clock time before
    /// it, `ManualSleep.night`). They stand for the recorded time in bed; the day is worked out
    /// again at once.
    public func setSleepTime(
        bedMinute: Int, wakeMinute: Int, day: CalendarDay, for user: UserRecord, now: Date = Date()
    ) async throws
        -> DailySummary
    {
        let offset = try await editableNight(day, for: user, now: now, what: "time slept", field: "bedTime")
        let night: ManualSleep
        switch ManualSleep.night(bedMinute: bedMinute, wakeMinute: wakeMinute, day: day, utcOffsetSeconds: offset) {
        case .success(let value): night = value
        case .failure(let fault):
            throw AppError.invalid(fault.description, field: Self.faultField(fault))
        }
        guard night.wakeTime <= now else {
            throw AppError.invalid("the wake time is still to come: set the night once you are up", field: "wakeTime")
        }
        try await store.daily.putManualSleep(userID: user.id, day: day, night, now: now)
        try await recompute(user, from: day, through: day, now: now)
        return try await self.day(day, for: user)
    }

    /// Clears the bed and wake time the user set for the night before `day`: the recorded night
    /// counts again. Not found when none was set.
    public func clearSleepTime(day: CalendarDay, for user: UserRecord, now: Date = Date()) async throws -> DailySummary {
        _ = try await editableNight(day, for: user, now: now, what: "time slept", field: "bedTime")
        guard try await store.daily.putManualSleep(userID: user.id, day: day, nil, now: now) else { throw AppError.notFound("time slept") }
        try await recompute(user, from: day, through: day, now: now)
        return try await self.day(day, for: user)
    }

    static func faultField(_ fault: ManualSleep.Fault) -> String {
        switch fault {
        case .wakeTooLate: "wakeTime"
        case .sameTime, .tooLong, .outOfRange: "bedTime"
        }
    }
}
