import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel

/// The JSON text frames the server sends on live sockets (docs/PROTOCOL.md).
enum LiveMessages {
    static func ack(_ ack: LiveService.Ack) -> String {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        json.field("type", "ack")
        json.field("sensor", ack.sensor)
        json.field("seq", ack.sequence)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func error(sensor: String?, sequence: Int?, detail: String) -> String {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.field("type", "error")
        json.field("sensor", sensor)
        json.field("seq", sequence)
        json.field("detail", detail)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The first message on a feed: the viewer's sensors as `GET /api/sensors` lists them
    /// (id, address, name, last bpm, contact, battery, last seen). Readings follow.
    static func watching(_ sensors: [SensorRecord]) -> String {
        var json = JSONWriter(capacity: 64 + sensors.count * 160)
        json.beginObject()
        json.field("type", "watching")
        json.key("sensors")
        json.beginArray()
        for sensor in sensors {
            json.beginObject()
            json.field("id", sensor.id)
            json.field("address", sensor.address)
            json.field("name", sensor.name)
            json.field("lastBpm", sensor.lastBeatsPerMinute)
            json.field("contact", sensor.lastContact?.rawValue)
            json.field("battery", sensor.battery)
            if let seen = sensor.lastAt { json.field("lastSeenAt", seen) }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// A reading for viewers: `sensor` is the sensor's id (as `GET /api/sensors` lists it).
    static func reading(_ event: LiveEvent) -> String {
        var json = JSONWriter(capacity: 192)
        json.beginObject()
        json.field("type", "reading")
        json.field("sensor", event.sensor.id)
        json.field("address", event.sensor.address)
        json.field("name", event.sensor.name)
        json.field("bpm", event.reading.beatsPerMinute)
        json.field("contact", event.reading.contact.rawValue)
        json.field("battery", event.reading.battery)
        json.key("rr")
        json.beginArray()
        for interval in event.reading.rrIntervalsMilliseconds { json.number(interval) }
        json.endArray()
        json.field("seq", event.reading.sequence)
        json.field("at", event.reading.atMilliseconds)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
