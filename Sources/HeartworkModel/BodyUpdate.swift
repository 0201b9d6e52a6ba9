import Foundation

/// What an import's owner (birth date, sex) and body samples (body mass, height) did to a
/// profile and its measurement histories (`DailyHealthService.applyBody`): the profile fields
/// filled because they were empty, the weights and heights added to the histories (one a
/// day: the day's last), those already stored, and those left out with the reason.
public struct BodyUpdate: Sendable, Hashable, Codable {
    /// Profile fields filled ("dateOfBirth", "sex", "heightMeters"); a field already set is
    /// never changed.
    public var profileFilled: [String] = []
    public var weightsAdded = 0
    public var heightsAdded = 0
    /// Days whose imported value was already stored (an import sent again).
    public var alreadyStored = 0
    /// Days left out, by reason ("you typed a weight that day": 2).
    public var leftOut: [String: Int] = [:]

    public init() {}

    /// Whether anything changed (the profile or a history).
    public var changedAnything: Bool { !profileFilled.isEmpty || weightsAdded > 0 || heightsAdded > 0 }

    /// Adds another call's counts (an import that applies its body more than once).
    public mutating func add(_ other: BodyUpdate) {
        for field in other.profileFilled where !profileFilled.contains(field) { profileFilled.append(field) }
        weightsAdded += other.weightsAdded
        heightsAdded += other.heightsAdded
        alreadyStored += other.alreadyStored
        for (reason, count) in other.leftOut { leftOut[reason, default: 0] += count }
    }
}
