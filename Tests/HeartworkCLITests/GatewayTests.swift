import ArgumentParser
import Foundation
import HeartworkBlueZ
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

@testable import HeartworkCLI

/// `heartwork gateway`'s pure parts: the reconnect policy (FitLabTeam seed F14: every 5 s,
/// given up after 10 tries), sequence numbers that never go backwards, the spool file, and
/// BlueZ's object tree kept current from signals. The whole command runs against a fake
/// BlueZ in Tests/Gateway/bluez_gateway_test.py.
@Suite("heartwork gateway")
struct GatewayTests {
    @Test func aDroppedStrapIsTriedEvery5SecondsAndGivenUpAfter10Tries() {
        var link = StrapLink()
        #expect(link.state == .notSeen && !link.tryDue(at: 0))
        link.seen(at: 100)
        #expect(link.tryDue(at: 100) && link.label == "found")
        link.tryStarted(at: 100)
        #expect(link.label == "connecting")
        link.streaming()
        #expect(link.state == .streaming)

        link.dropped(at: 200)
        #expect(link.state == .waiting && link.label == "reconnecting")
        #expect(!link.tryDue(at: 204.9) && link.tryDue(at: 205))
        var time = 205.0
        var tries = 0
        while link.state != .givenUp {
            #expect(link.tryDue(at: time), "try \(tries + 1) due at \(time)")
            #expect(!link.tryDue(at: time - 0.1))
            link.tryStarted(at: time)
            time += 2  // Connect fails after 2 s
            link.tryFailed(at: time)
            tries += 1
            time += StrapLink.retryInterval
            #expect(tries <= 10)
        }
        #expect(tries == 10 && link.label == "given up" && !link.tryDue(at: time + 1000))
        #expect(link.failedTries == 10)
    }

    @Test func aStrapThatComesBackStartsAFreshCount() {
        var link = StrapLink()
        link.seen(at: 0)
        link.tryStarted(at: 0)
        link.streaming()
        link.dropped(at: 10)
        for attempt in 0..<9 {
            let time = 15.0 + Double(attempt) * 5
            #expect(link.tryDue(at: time))
            link.tryStarted(at: time)
            link.tryFailed(at: time)
        }
        #expect(link.failedTries == 9 && link.state == .waiting)
        link.tryStarted(at: 60)
        link.streaming()
        #expect(link.failedTries == 0 && link.label == "streaming")
        // A drop while connecting counts as a failed try.
        link.dropped(at: 70)
        link.tryStarted(at: 75)
        link.dropped(at: 76)
        #expect(link.failedTries == 1 && link.state == .waiting && link.tryDue(at: 81) && !link.tryDue(at: 80.9))
    }

    @Test func aSetUpThatHangsTimesOut() {
        var link = StrapLink()
        link.seen(at: 0)
        link.tryStarted(at: 1)
        #expect(!link.setupTimedOut(at: 31) && link.setupTimedOut(at: 31.1))
        link.tryFailed(at: 31.1)
        #expect(link.state == .waiting && link.failedTries == 1)
    }

    @Test func sequencesResumeAndAreReservedBeforeUse() {
        var book = SequenceBook()
        let first = book.take("A")
        #expect(first.sequence == 0 && first.needsSave, "the first number reserves a block, saved before use")
        #expect(book.reservations["A"] == 256)
        for expected in 1..<256 {
            let taken = book.take("A")
            #expect(taken.sequence == expected && !taken.needsSave)
        }
        let crossing = book.take("A")
        #expect(crossing.sequence == 256 && crossing.needsSave && book.reservations["A"] == 512)
        #expect(book.next["A"] == 257)

        // A clean stop keeps the exact next number: a restart resumes there.
        var resumed = SequenceBook(next: book.next)
        #expect(resumed.take("A").sequence == 257)
        // A crash keeps the reservation: a restart goes on after it, never back.
        var afterCrash = SequenceBook(next: book.reservations)
        #expect(afterCrash.take("A").sequence == 512)
        #expect(afterCrash.take("B").sequence == 0)
    }

    @Test func theSpoolKeepsReadingsAndSequencesByteForByte() throws {
        // 16-bit heart rate 72 (0x0148 00: the raw bytes differ from what encoding the
        // measurement again would give), and energy expended with RR.
        let raw: [[UInt8]] = [[0x01, 0x48, 0x00], [0x1E, 0x8C, 0x10, 0x00, 0x00, 0x04, 0x10, 0x04]]
        let readings = try raw.enumerated().map { index, bytes in
            GatewayReading(
                sensor: "A0:9E:1A:12:34:56", sequence: 41 + index, atMilliseconds: 1_795_400_000_000 + index * 1000,
                measurement: try HeartRateMeasurementCodec.decode(bytes), battery: index == 0 ? 81 : nil, rssi: -60, rawMeasurement: bytes)
        }
        let spool = GatewaySpool(sequences: ["A0:9E:1A:12:34:56": 43, "C0:DE:00:00:00:01": 7], readings: readings, clean: true)
        let text = String(decoding: spool.encoded(), as: UTF8.self)
        #expect(text.contains(#""hrm":"014800""#) && text.contains(#""hrm":"1E8C10000004100"#))
        let decoded = try GatewaySpool.decode(spool.encoded())
        #expect(decoded == spool)
        #expect(decoded.readings.map(\.rawMeasurement) == raw)
        #expect(GatewayFrame.write(decoded.readings).contains(#""hrm":"014800""#), "the uplink sends the strap's own bytes")

        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("state/heartwork/gateway-spool.json").path
        #expect(try GatewaySpool.load(path: path) == GatewaySpool(), "no file: nothing spooled")
        try spool.save(path: path)
        #expect(try GatewaySpool.load(path: path) == spool)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("state/heartwork").path) == ["gateway-spool.json"])
        try Data("{\"version\":2}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SpoolError.self) { try GatewaySpool.load(path: path) }
    }

    @Test func theSpoolsDefaultPathFollowsXDG() {
        #expect(GatewaySpool.defaultPath(environment: ["XDG_STATE_HOME": "/var/lib/hw", "HOME": "/home/pi"]) == "/var/lib/hw/heartwork/gateway-spool.json")
        #expect(GatewaySpool.defaultPath(environment: ["HOME": "/home/pi"]) == "/home/pi/.local/state/heartwork/gateway-spool.json")
        #expect(GatewaySpool.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/pi"]) == "/home/pi/.local/state/heartwork/gateway-spool.json")
    }

    @Test func blueZObjectsFollowTheirSignals() throws {
        let device = "/org/bluez/hci0/dev_A0_9E_1A_12_34_56"
        var objects = BlueZObjects(
            managedObjects: .array(
                element: "{oa{sa{sv}}}",
                [
                    .dictEntry(.objectPath("/org/bluez/hci0"), .array(element: "{sa{sv}}", [.dictEntry(.string(BlueZ.adapter), .properties([]))])),
                    .dictEntry(
                        .objectPath(device),
                        .array(
                            element: "{sa{sv}}",
                            [
                                .dictEntry(
                                    .string(BlueZ.device),
                                    .properties([
                                        "Address": .string("a0:9e:1a:12:34:56"), "Name": .string("Polar H10"), "UUIDs": .strings([BlueZ.heartRateService]),
                                        "RSSI": .int16(-70), "Adapter": .objectPath("/org/bluez/hci0"),
                                    ]))
                            ])),
                ]))
        #expect(objects.adapters == ["/org/bluez/hci0"])
        let strap = objects.devices(of: "/org/bluez/hci0")
        #expect(strap.map(\.address) == ["A0:9E:1A:12:34:56"] && strap.first?.isHeartRateStrap == true && strap.first?.connected == false)

        let characteristic = device + "/service000c/char000d"
        let added = DBusMessage.signal(
            path: "/", interface: BlueZ.objectManager, member: "InterfacesAdded",
            body: [
                .objectPath(characteristic),
                .array(
                    element: "{sa{sv}}",
                    [
                        .dictEntry(
                            .string(BlueZ.gattCharacteristic),
                            .properties(["UUID": .string(BlueZ.heartRateMeasurement), "Service": .objectPath(device + "/service000c"), "Value": .bytes([])]))
                    ]),
            ])
        #expect(objects.apply(added) == .added(path: characteristic, interfaces: [BlueZ.gattCharacteristic]))
        #expect(objects.characteristic(BlueZ.heartRateMeasurement, of: device) == characteristic)
        #expect(objects.characteristic(BlueZ.batteryLevel, of: device) == nil)

        let connected = DBusMessage.signal(
            path: device, interface: BlueZ.properties, member: "PropertiesChanged",
            body: [.string(BlueZ.device), .properties(["Connected": .boolean(true), "ServicesResolved": .boolean(true)]), .strings(["RSSI"])])
        _ = objects.apply(connected)
        let now = objects.device(at: device)
        #expect(now?.connected == true && now?.servicesResolved == true && now?.rssi == nil)

        let value = DBusMessage.signal(
            path: characteristic, interface: BlueZ.properties, member: "PropertiesChanged",
            body: [.string(BlueZ.gattCharacteristic), .properties(["Value": .bytes([0x16, 0x48, 0x00, 0x04])]), .strings([])])
        #expect(
            objects.apply(value) == .properties(path: characteristic, interface: BlueZ.gattCharacteristic, changed: ["Value": .bytes([0x16, 0x48, 0x00, 0x04])], invalidated: []))
        // The same signal as it comes off the wire.
        var numbered = value
        numbered.serial = 7
        #expect(try DBusMessage.decode(numbered.encoded()).body == value.body)

        let removed = DBusMessage.signal(
            path: "/", interface: BlueZ.objectManager, member: "InterfacesRemoved", body: [.objectPath(characteristic), .strings([BlueZ.gattCharacteristic])])
        _ = objects.apply(removed)
        #expect(objects.characteristic(BlueZ.heartRateMeasurement, of: device) == nil)
    }

    @Test func statusLinesForPeopleAndScripts() throws {
        var strap = GatewayStrap(address: "A0:9E:1A:12:34:56")
        strap.name = "Polar H10"
        strap.link.seen(at: 0)
        strap.link.tryStarted(at: 0)
        strap.link.streaming()
        strap.battery = 81
        strap.rssi = -61
        strap.lastSequence = 1042
        strap.readings = 60
        strap.lastMeasurement = HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .detected, rrIntervalTicks: [1024])
        #expect(
            GatewayStatusPrinter(json: false).line(strap, pending: 2)
                == "A0:9E:1A:12:34:56 (Polar H10) streaming: 72 bpm, battery 81 %, rssi -61 dBm, seq 1042, 60 readings, 2 unacknowledged")
        let json = GatewayStatusPrinter(json: true).line(strap, pending: 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["sensor"] as? String == "A0:9E:1A:12:34:56" && object["state"] as? String == "streaming" && object["bpm"] as? Int == 72)
        #expect(object["seq"] as? Int == 1042 && object["unacknowledged"] as? Int == 2 && object["battery"] as? Int == 81)
        #expect(!json.contains("\n"))
    }

    /// Without a system bus (a path, an abstract name that nobody listens on, an address
    /// that is not a Unix socket) the gateway says so in one line and exits 1; no bus needed.
    @Test(arguments: ["unix:path=/nonexistent/heartwork-test-bus", "unix:abstract=heartwork-test-no-bus-here", "tcp:host=127.0.0.1,port=9"])
    func withoutABusItSaysSoInOneLine(address: String) throws {
        let run = try ExecutableTests().run(
            ["gateway", "--server", "http://127.0.0.1:9", "--token", "hwg_x", "--all", "--spool", "/nonexistent/spool.json"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("heartwork gateway: ") == true, "\(run.standardError)")
        #expect(run.standardError.contains(address.hasPrefix("tcp") ? "DBUS_SYSTEM_BUS_ADDRESS is not usable" : "no D-Bus system bus"), "\(run.standardError)")
    }

    @Test func itsOptionsAreChecked() throws {
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["gateway", "--server", "http://x", "--token", "hwg_x"]) }
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["gateway", "--server", "ftp://x", "--token", "hwg_x", "--all"]) }
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["gateway", "--server", "http://x", "--token", "hwg_x", "--strap", "A0:9E"]) }
        let command = try #require(
            try HeartworkCommand.parseAsRoot(["gateway", "--server", "http://x", "--token", "hwg_x", "--strap", "a0:9e:1a:12:34:56", "--strap", "C0:DE:00:00:00:01"])
                as? GatewayCommand)
        #expect(command.straps.count == 2 && command.adapter == "hci0" && command.format == .table)
    }
}
