import Foundation
import HeartworkCore

/// A strap one of the user's gateways has heard, with what it last said.
public struct SensorRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    /// The gateway's name for it (a BLE address, an ANT+ id).
    public var address: String
    /// The coach's name for it, once given.
    public var name: String?
    /// The gateway that heard it last.
    public var gatewayID: String?
    public var createdAt: Date
    public var lastAt: Date?
    public var lastBeatsPerMinute: Int?
    public var lastContact: SensorContact?
    public var battery: Int?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, address: String, name: String? = nil, gatewayID: String? = nil,
        createdAt: Date, lastAt: Date? = nil, lastBeatsPerMinute: Int? = nil, lastContact: SensorContact? = nil, battery: Int? = nil
    ) {
        self.id = id
        self.userID = userID
        self.address = address
        self.name = name
        self.gatewayID = gatewayID
        self.createdAt = createdAt
        self.lastAt = lastAt
        self.lastBeatsPerMinute = lastBeatsPerMinute
        self.lastContact = lastContact
        self.battery = battery
    }
}

/// What one store call added for one sensor: the new readings (resent ones left out) and the
/// highest sequence number of the call, now durable.
public struct StoredSensorReadings: Sendable {
    public let sensor: SensorRecord
    public let added: [SensorReading]
    public let highestSequence: Int

    public init(sensor: SensorRecord, added: [SensorReading], highestSequence: Int) {
        self.sensor = sensor
        self.added = added
        self.highestSequence = highestSequence
    }
}

/// What storing one frame did: the readings stored per sensor, and the sensors refused
/// because the account has `SensorLimits.maximumPerUser` already.
public struct SensorStoreResult: Sendable {
    public var stored: [StoredSensorReadings]
    /// Addresses of new sensors over the account's limit (their readings were not stored),
    /// each with the frame's highest sequence number for it.
    public var refused: [(address: String, highestSequence: Int)]

    public init(stored: [StoredSensorReadings], refused: [(address: String, highestSequence: Int)] = []) {
        self.stored = stored
        self.refused = refused
    }
}

public enum SensorLimits {
    /// The most sensors one account's gateways may create (a club with every strap it owns
    /// has a few hundred).
    public static let maximumPerUser = 1_000
}
