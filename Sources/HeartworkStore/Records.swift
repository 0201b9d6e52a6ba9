import Foundation
import HeartworkCore

/// A user account with its profile and settings.
public struct UserRecord: Sendable, Hashable {
    public var id: String
    public var username: String
    public var fullName: String
    public var email: String
    public var passwordHash: String
    public var status: String
    /// ISO date (yyyy-mm-dd).
    public var dateOfBirth: String?
    public var sex: Sex?
    public var heightMeters: Double?
    /// gellish, fox, tanaka or measured.
    public var maxHeartRateMethod: String
    public var measuredMaxHeartRate: Double?
    /// metric or imperial: how the web app shows values; storage is always SI.
    public var units: String
    public var autoShareWorkouts: Bool
    public var maxSharedWorkouts: Int
    public var createdAt: Date
    public var hasPhoto: Bool

    public init(
        id: String = UUID().uuidString.lowercased(), username: String, fullName: String, email: String,
        passwordHash: String, status: String = "", dateOfBirth: String? = nil, sex: Sex? = nil,
        heightMeters: Double? = nil, maxHeartRateMethod: String = "gellish", measuredMaxHeartRate: Double? = nil,
        units: String = "metric", autoShareWorkouts: Bool = false, maxSharedWorkouts: Int = 20,
        createdAt: Date = Date(), hasPhoto: Bool = false
    ) {
        self.id = id
        self.username = username
        self.fullName = fullName
        self.email = email
        self.passwordHash = passwordHash
        self.status = status
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.heightMeters = heightMeters
        self.maxHeartRateMethod = maxHeartRateMethod
        self.measuredMaxHeartRate = measuredMaxHeartRate
        self.units = units
        self.autoShareWorkouts = autoShareWorkouts
        self.maxSharedWorkouts = maxSharedWorkouts
        self.createdAt = createdAt
        self.hasPhoto = hasPhoto
    }
}

/// A dated measurement of the profile: weight in kg or resting heart rate in bpm.
public struct MeasurementEntry: Sendable, Hashable {
    public var id: String
    public var measuredAt: Date
    public var value: Double

    public init(id: String = UUID().uuidString.lowercased(), measuredAt: Date, value: Double) {
        self.id = id
        self.measuredAt = measuredAt
        self.value = value
    }
}

public enum SessionKind: String, Sendable, Hashable {
    /// Bearer token for the API.
    case api
    /// Cookie session for the web app, with a CSRF token.
    case web
}

/// A login. The token itself is never stored, only its SHA-256.
public struct SessionRecord: Sendable, Hashable {
    public var tokenHash: String
    public var userID: String
    public var kind: SessionKind
    public var csrfToken: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?

    public init(tokenHash: String, userID: String, kind: SessionKind, csrfToken: String?, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.kind = kind
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    public func isValid(at now: Date) -> Bool { revokedAt == nil && expiresAt > now }
}

public enum FriendRequestStatus: String, Sendable, Hashable {
    case pending, accepted, denied
}

public struct FriendRequestRecord: Sendable, Hashable {
    public var id: String
    public var fromUserID: String
    public var toUserID: String
    public var status: FriendRequestStatus
    public var createdAt: Date
}

/// What a workout remembers of its owner when it was recorded: ghost challenges replay
/// against these values, not today's.
public struct ProfileSnapshot: Sendable, Hashable {
    public var ageYears: Int?
    public var restingHeartRate: Double?
    public var maximumHeartRate: Double?
    public var maximumHeartRateMethod: String?
    public var weightKilograms: Double?
    public var sex: Sex?

    public init(ageYears: Int? = nil, restingHeartRate: Double? = nil, maximumHeartRate: Double? = nil,
                maximumHeartRateMethod: String? = nil, weightKilograms: Double? = nil, sex: Sex? = nil) {
        self.ageYears = ageYears
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.maximumHeartRateMethod = maximumHeartRateMethod
        self.weightKilograms = weightKilograms
        self.sex = sex
    }

    /// The zones of this snapshot, when it has the anchors for them.
    public var zoneProfile: ZoneProfile? {
        guard let restingHeartRate, let maximumHeartRate else { return nil }
        return try? ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: maximumHeartRate)
    }
}

public enum Sport: String, Sendable, Hashable, CaseIterable {
    case running, cycling, strength, other
}

/// A stored workout's summary (the list view) and derived values.
public struct WorkoutRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var sport: Sport
    public var startedAt: Date
    public var indoor: Bool
    public var durationSeconds: Int
    public var averageHeartRate: Double?
    public var minimumHeartRate: Double?
    public var maximumHeartRate: Double?
    public var kilocalories: Double?
    public var distanceMeters: Double?
    /// Seconds in none, low, moderate, high, red line; nil without a zone profile.
    public var secondsInZones: [Int]?
    public var profile: ProfileSnapshot
    public var rrCount: Int
    public var trackCount: Int
    public var shared: Bool
    public var sharedAt: Date?
    public var createdAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, sport: Sport, startedAt: Date, indoor: Bool,
        durationSeconds: Int, averageHeartRate: Double?, minimumHeartRate: Double?, maximumHeartRate: Double?,
        kilocalories: Double?, distanceMeters: Double?, secondsInZones: [Int]?, profile: ProfileSnapshot,
        rrCount: Int, trackCount: Int, shared: Bool = false, sharedAt: Date? = nil, createdAt: Date = Date()
    ) {
        self.id = id
        self.userID = userID
        self.sport = sport
        self.startedAt = startedAt
        self.indoor = indoor
        self.durationSeconds = durationSeconds
        self.averageHeartRate = averageHeartRate
        self.minimumHeartRate = minimumHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.kilocalories = kilocalories
        self.distanceMeters = distanceMeters
        self.secondsInZones = secondsInZones
        self.profile = profile
        self.rrCount = rrCount
        self.trackCount = trackCount
        self.shared = shared
        self.sharedAt = sharedAt
        self.createdAt = createdAt
    }
}

/// A workout's time series.
public struct WorkoutStreams: Sendable, Hashable {
    /// One value per second from the start; nil where there was no reading.
    public var heartRate: [Int?]
    public var rrIntervalsMilliseconds: [Double]
    public var track: [GeoPoint]

    public init(heartRate: [Int?], rrIntervalsMilliseconds: [Double] = [], track: [GeoPoint] = []) {
        self.heartRate = heartRate
        self.rrIntervalsMilliseconds = rrIntervalsMilliseconds
        self.track = track
    }
}

/// A page of results.
public struct Page: Sendable, Hashable {
    public var limit: Int
    public var offset: Int

    public init(limit: Int = 20, offset: Int = 0) {
        self.limit = max(1, min(limit, 100))
        self.offset = max(0, offset)
    }
}
