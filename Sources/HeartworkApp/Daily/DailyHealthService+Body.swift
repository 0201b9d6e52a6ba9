import Foundation
import HeartworkCore
import HeartworkStore

/// What the imports read of the body (issue 24): the owner's birth date and sex, body mass and
/// height — the profile's empty fields filled, the weight and height histories kept.
extension DailyHealthService {
    /// Applies an import's owner and body samples to a user's profile and histories, for the
    /// Apple Health import and the phone syncs alike; returns what it did.
    ///
    /// - The profile's birth date, sex and height are filled only while empty (a typed value is
    ///   never changed); the height is the latest plausible height sample.
    /// - Body-mass and height samples become weight and height measurements, one a day (the
    ///   day's last sample, the day cut where it was taken), marked with their source
    ///   (`"<importedFrom>: <sample source>"`). A value the user entered on that day wins (the
    ///   day is left out and counted); an imported value already stored for the day stays when
    ///   it is as late or later, an earlier one is replaced. Values outside the kind's
    ///   plausible range are left out and counted.
    /// - When anything changed, the user's cached sessions reload and the completion of
    ///   earlier workouts' snapshots is queued (their zones and energy follow). The days'
    ///   recomputation is the caller's (an import queues one for everything it brought).
    ///
    /// Samples of other kinds are ignored, so a whole batch may be passed.
    public func applyBody(
        owner: HealthOwner?, samples: [HealthSample], for user: UserRecord, importedFrom: String = "Apple Health", now: Date = Date()
    ) async throws -> BodyUpdate {
        var update = BodyUpdate()
        guard let current = try await store.users.find(id: user.id) else { throw AppError.notSignedIn }
        var latestHeight: HealthSample?
        for (kind, sampleKind) in [(MeasurementKind.weight, HealthSample.Kind.bodyMass), (.height, .height)] {
            var lastOfDay = [CalendarDay: HealthSample]()
            for sample in samples where sample.kind == sampleKind && sample.value.isFinite {
                if let kept = lastOfDay[sample.day], (kept.start, kept.value) >= (sample.start, sample.value) { continue }
                lastOfDay[sample.day] = sample
            }
            guard !lastOfDay.isEmpty else { continue }
            var stored = try await store.measurements.list(userID: user.id, kind: kind)
            for (day, sample) in lastOfDay.sorted(by: { $0.key < $1.key }) {
                let range = kind.plausibleRange
                guard range.contains(sample.value) else {
                    update.leftOut["a \(kind.displayName) outside \(range.formattedForMessage) \(kind.unit)", default: 0] += 1
                    continue
                }
                if kind == .height, latestHeight.map({ $0.start < sample.start }) ?? true { latestHeight = sample }
                let sameDay = stored.filter { CalendarDay($0.measuredAt, utcOffsetSeconds: sample.utcOffsetSeconds) == day }
                if sameDay.contains(where: { !$0.isImported }) {
                    update.leftOut["you entered a \(kind.displayName) that day", default: 0] += 1
                    continue
                }
                if sameDay.contains(where: { $0.measuredAt.timeIntervalSince(sample.start) > -0.001 }) {
                    update.alreadyStored += 1
                    continue
                }
                for earlier in sameDay {
                    _ = try await store.measurements.delete(id: earlier.id, userID: user.id, kind: kind)
                    stored.removeAll { $0.id == earlier.id }
                }
                let record = MeasurementRecord(
                    kind: kind, measuredAt: Date(milliseconds: sample.start.millisecondsSince1970), value: sample.value,
                    source: "\(importedFrom): \(sample.source)")
                try await store.measurements.add(userID: user.id, record)
                stored.append(record)
                if kind == .weight { update.weightsAdded += 1 } else { update.heightsAdded += 1 }
            }
        }

        // The profile's empty fields.
        var changes = ProfileChanges()
        if current.dateOfBirth == nil, let day = owner?.dateOfBirth, day < CalendarDay(now),
            PhysiologicalLimits.ageYears.contains(Double(day.wholeYears(until: CalendarDay(now))))
        {
            changes.dateOfBirth = .set(day)
            update.profileFilled.append("dateOfBirth")
        }
        if current.sex == nil, let sex = owner?.sex {
            changes.sex = .set(sex)
            update.profileFilled.append("sex")
        }
        if current.heightMeters == nil, let height = latestHeight?.value, ProfileService.heightMeters.contains(height) {
            changes.heightMeters = .set((height * 1000).rounded() / 1000)
            update.profileFilled.append("heightMeters")
        }
        if !update.profileFilled.isEmpty {
            _ = try await store.users.update(userID: user.id, UserChanges(profile: changes)) { _ in }
        }
        if update.changedAnything {
            sessionCache?.forget(userID: user.id)
            try await workouts.queueSnapshotCompletion(userID: user.id, now: now)
        }
        return update
    }
}
