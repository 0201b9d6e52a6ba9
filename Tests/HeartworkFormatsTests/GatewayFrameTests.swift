import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// The gateway protocol's frames (docs/PROTOCOL.md). Golden measurement: `16480004` is
/// flags 0x16 (contact detected, RR present), 72 bpm, one RR of 0x0400 = 1024/1024 s = 1000 ms
/// (Bluetooth Heart Rate Service 1.0 §3.1).
@Suite("Gateway frames")
struct GatewayFrameTests {
    static func read(_ text: String) throws(GatewayProtocolViolation) -> [GatewayItem] {
        try GatewayFrame.read(Array(text.utf8))
    }

    @Test func aReadingWithItsMeasurementDecoded() throws {
        let items = try Self.read(#"{"type":"reading","sensor":"A0:9E:1A:12:34:56","seq":7,"at":1795400000000,"hrm":"16480004","battery":81,"rssi":-60,"firmware":"2.1"}"#)
        #expect(
            items == [
                .reading(
                    GatewayReading(
                        sensor: "A0:9E:1A:12:34:56", sequence: 7, atMilliseconds: 1_795_400_000_000,
                        measurement: HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .detected, rrIntervalTicks: [1024]),
                        battery: 81, rssi: -60))
            ])
    }

    @Test func aBadItemIsRefusedAndTheOthersKept() throws {
        let items = try Self.read(
            """
            {"type":"readings","items":[
              {"sensor":"s1","seq":1,"at":1795400000000,"hrm":"0648"},
              {"sensor":"s1","seq":2,"at":1795400001000,"hrm":"zz"},
              {"sensor":"s1","seq":3,"at":1795400002000,"hrm":"10"},
              {"sensor":"s2","at":1795400002000,"hrm":"0648"},
              {"sensor":"s2","seq":4,"at":1795400002000,"hrm":"0648","battery":140},
              {"sensor":"s2","seq":5,"at":12,"hrm":"0648"},
              {"type":"reading","sensor":"s3","seq":0,"at":1795400003000,"hrm":"0148 00"}
            ]}
            """)
        #expect(items.count == 7)
        guard case .reading(let first) = items[0] else {
            Issue.record("the good reading was refused")
            return
        }
        #expect(first.measurement.beatsPerMinute == 72 && first.measurement.sensorContact == .detected)
        guard case .refused(let sensor, let seq, let detail) = items[1] else {
            Issue.record("bad hex was taken")
            return
        }
        #expect(sensor == "s1" && seq == 2 && detail.contains("items[1].hrm") && detail.contains("hexadecimal"))
        guard case .refused(_, let seq3, let truncated) = items[2] else {
            Issue.record("a truncated measurement was taken")
            return
        }
        #expect(seq3 == 3 && truncated.contains("truncated"))
        guard case .refused(let sensor4, let seq4, let missing) = items[3] else {
            Issue.record("a reading without seq was taken")
            return
        }
        #expect(sensor4 == "s2" && seq4 == nil && missing.contains("items[3].seq"))
        guard case .refused(_, _, let battery) = items[4] else {
            Issue.record("battery 140 was taken")
            return
        }
        #expect(battery.contains("battery"))
        guard case .refused(_, _, let clock) = items[5] else {
            Issue.record("a 1970 clock was taken")
            return
        }
        #expect(clock.contains("items[5].at"))
        guard case .reading(let sixteenBit) = items[6] else {
            Issue.record("a 16-bit heart rate was refused")
            return
        }
        #expect(sixteenBit.measurement.beatsPerMinute == 72 && sixteenBit.sequence == 0)
    }

    @Test func framesThatAreNotTheProtocolAreViolations() {
        for text in ["not json", "[1,2]", #"{"type":"hello"}"#, #"{"sensor":"s1"}"#, #"{"type":"readings","items":{}}"#] {
            #expect(throws: GatewayProtocolViolation.self, "\(text)") { try Self.read(text) }
        }
        let item = #"{"sensor":"s","seq":1,"at":1795400000000,"hrm":"0648"}"#
        let tooMany = #"{"type":"readings","items":["# + Array(repeating: item, count: 501).joined(separator: ",") + "]}"
        #expect(throws: GatewayProtocolViolation.self) { try Self.read(tooMany) }
        let exactly = #"{"type":"readings","items":["# + Array(repeating: item, count: 500).joined(separator: ",") + "]}"
        #expect((try? Self.read(exactly))?.count == 500)
        #expect(throws: GatewayProtocolViolation.self) { try GatewayFrame.read(Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)) }
    }

    @Test func sensorNamesArePrintableAndShort() throws {
        for name in ["", String(repeating: "x", count: 65), "a\u{0}b", "line\nbreak", "rtl\u{202E}"] {
            let text =
                #"{"type":"reading","sensor":"#
                + "\"\(name.unicodeScalars.map { $0.value < 32 || $0.value == 0x202E ? String(format: "\\u%04x", $0.value) : String($0) }.joined())\""
                + #","seq":1,"at":1795400000000,"hrm":"0648"}"#
            let items = try Self.read(text)
            guard case .refused(_, _, let detail) = items.first else {
                Issue.record("sensor \(name.debugDescription) was taken")
                continue
            }
            #expect(detail.contains("sensor"))
        }
    }
}
