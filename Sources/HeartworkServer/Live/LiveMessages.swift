import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// The JSON text frames the server sends on live sockets (docs/PROTOCOL.md).
enum LiveMessages {
    /// The most items one `acks` or `readings` message carries (the gateway's own `readings`
    /// frames carry up to 500); more make several messages.
    static let itemsPerMessage = 500

    static func ack(_ ack: LiveService.Ack) -> WebSocketOutboundWriter.OutboundFrame {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        json.field("type", "ack")
        json.field("sensor", ack.sensor)
        json.field("seq", ack.sequence)
        json.endObject()
        return text(json)
    }

    /// `{"type": "acks", "items": [{"sensor", "seq"}, …]}`: the acks of the frames committed
    /// together, in order, for a gateway that asked for batches (`?batch=1`, PROTOCOL.md §4).
    static func acks(_ acks: ArraySlice<LiveService.Ack>) -> WebSocketOutboundWriter.OutboundFrame {
        var json = JSONWriter(capacity: 32 + acks.count * 48)
        json.beginObject()
        json.field("type", "acks")
        json.key("items")
        json.beginArray()
        for ack in acks {
            json.beginObject()
            json.field("sensor", ack.sensor)
            json.field("seq", ack.sequence)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return text(json)
    }

    /// A text frame of the writer's bytes as they are (no String in between: the hot path
    /// writes 20,000 of these a second at 10,000 straps).
    static func text(_ json: JSONWriter) -> WebSocketOutboundWriter.OutboundFrame {
        .custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: json.bytes)))
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
    static func reading(_ event: LiveEvent) -> WebSocketOutboundWriter.OutboundFrame {
        var json = JSONWriter(capacity: 192)
        reading(event, into: &json)
        return text(json)
    }

    /// `{"type": "readings", "items": [reading, …]}`, each item the `reading` message as it is
    /// (its `"type": "reading"` included), for a viewer that asked for batches (`?batch=1`).
    static func readings(_ events: ArraySlice<LiveEvent>) -> WebSocketOutboundWriter.OutboundFrame {
        var json = JSONWriter(capacity: 32 + events.count * 192)
        json.beginObject()
        json.field("type", "readings")
        json.key("items")
        json.beginArray()
        for event in events { reading(event, into: &json) }
        json.endArray()
        json.endObject()
        return text(json)
    }

    private static func reading(_ event: LiveEvent, into json: inout JSONWriter) {
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
    }
}
