import Foundation
import HeartworkBlueZ
import HeartworkCore
import HeartworkFormats
import Logging

/// What the gateway's loop handles, one at a time: BlueZ's signals, a tick a second, the
/// answers of the calls it started, and the request to stop.
enum GatewayEvent: Sendable {
    case signal(DBusMessage)
    case tick
    case connectFinished(address: String, error: String?)
    case notifyFinished(address: String, characteristic: String, error: String?)
    case battery(address: String, level: Int?)
    case busLost
    case uplinkEnded(GatewayRefused?)
    case stop
}

/// One strap as the gateway sees it.
struct GatewayStrap: Sendable {
    let address: String
    var link = StrapLink()
    var path: String?
    var name: String?
    var rssi: Int?
    var battery: Int?
    var lastMeasurement: HeartRateMeasurement?
    var lastSequence: Int?
    var characteristic: String?
    var batteryCharacteristic: String?
    var lastBatteryRead = -Double.infinity
    var lastError: String?
    var readings = 0
}

/// `heartwork gateway`'s work: BlueZ's straps in, the gateway protocol out. Every change of
/// state happens on the loop in `run` (events in order, no locks); D-Bus calls run in tasks
/// that report back as events.
final class BlueZGateway {
    let client: BlueZClient
    let adapterPath: String
    let wanted: Set<String>
    let all: Bool
    let state: GatewayState
    let spoolPath: String
    let status: GatewayStatusPrinter
    let logger: Logger
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant
    var objects: BlueZObjects
    var straps: [String: GatewayStrap] = [:]
    var book: SequenceBook
    var discovering = false
    var lastStatus = -Double.infinity
    let statusInterval: Double
    let events: AsyncStream<GatewayEvent>
    let sink: AsyncStream<GatewayEvent>.Continuation

    init(
        client: BlueZClient, adapter: String, wanted: [String], all: Bool, state: GatewayState, spool: GatewaySpool, spoolPath: String,
        status: GatewayStatusPrinter, statusInterval: Double, logger: Logger, objects: BlueZObjects
    ) {
        self.client = client
        adapterPath = "/org/bluez/" + adapter
        self.wanted = Set(wanted.map { $0.uppercased() })
        self.all = all
        self.state = state
        self.spoolPath = spoolPath
        self.status = status
        self.statusInterval = statusInterval
        self.logger = logger
        self.objects = objects
        book = SequenceBook(next: spool.sequences)
        started = clock.now
        let (stream, continuation) = AsyncStream.makeStream(of: GatewayEvent.self, bufferingPolicy: .unbounded)
        events = stream
        sink = continuation
        for address in self.wanted.sorted() { straps[address] = GatewayStrap(address: address) }
    }

    var now: Double {
        let elapsed = clock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Runs until `stop` (or the bus or the server ends it); gives whether the server refused
    /// the gateway.
    func run() async -> GatewayRefused? {
        let connection = client.connection
        let owner = client.owner
        let sink = self.sink
        let signalTask = Task {
            // Only BlueZ's own signals (by its unique name): anything else on the bus could
            // address a made-up notification to us.
            for await message in connection.signals where message.sender == owner { sink.yield(.signal(message)) }
            sink.yield(.busLost)
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                sink.yield(.tick)
            }
        }
        defer {
            signalTask.cancel()
            ticker.cancel()
        }
        for device in objects.devices(of: adapterPath) { consider(device) }
        await updateDiscovery()
        tick()
        var refused: GatewayRefused?
        loop: for await event in events {
            switch event {
            case .signal(let message): handle(message)
            case .tick: tick()
            case .connectFinished(let address, let error): connectFinished(address, error: error)
            case .notifyFinished(let address, let characteristic, let error): notifyFinished(address, characteristic: characteristic, error: error)
            case .battery(let address, let level):
                if let level { straps[address]?.battery = level }
            case .busLost:
                logger.error("lost the D-Bus system bus")
                break loop
            case .uplinkEnded(let reason):
                refused = reason
                break loop
            case .stop:
                break loop
            }
            if case .tick = event {} else { await updateDiscovery() }
        }
        printStatus(force: true)
        return refused
    }

    // MARK: Devices

    func wants(_ device: BlueZDevice) -> Bool {
        guard device.adapter == adapterPath || device.path.hasPrefix(adapterPath + "/") else { return false }
        return wanted.contains(device.address) || (all && device.isHeartRateStrap)
    }

    func consider(_ device: BlueZDevice) {
        guard wants(device) else { return }
        var strap = straps[device.address] ?? GatewayStrap(address: device.address)
        let before = strap.link.label
        strap.path = device.path
        strap.name = device.name ?? strap.name
        strap.rssi = device.rssi ?? strap.rssi
        strap.link.seen(at: now)
        straps[device.address] = strap
        if strap.link.label != before { printStatus(of: device.address) }
    }

    func handle(_ message: DBusMessage) {
        guard let change = objects.apply(message) else { return }
        switch change {
        case .added(let path, let interfaces):
            if interfaces.contains(BlueZ.device), let device = objects.device(at: path) { consider(device) }
            if interfaces.contains(BlueZ.gattCharacteristic) || interfaces.contains(BlueZ.gattService) {
                for (address, strap) in straps where strap.link.state == .connecting && strap.characteristic == nil {
                    if let device = strap.path.flatMap(objects.device(at:)), device.servicesResolved { setUp(address) }
                }
            }
        case .removed:
            break
        case .properties(let path, let interface, let changed, _):
            if interface == BlueZ.gattCharacteristic, let value = changed["Value"]?.byteArray {
                if let address = straps.first(where: { $0.value.characteristic == path })?.key { measurement(value, from: address) }
                return
            }
            guard interface == BlueZ.device, let device = objects.device(at: path) else { return }
            if straps[device.address] == nil {
                consider(device)
                return
            }
            let address = device.address
            straps[address]?.path = path
            if let rssi = changed["RSSI"]?.integer { straps[address]?.rssi = rssi }
            if changed["Connected"]?.bool == false {
                straps[address]?.characteristic = nil
                straps[address]?.link.dropped(at: now)
                straps[address]?.lastError = "disconnected"
                printStatus(of: address)
            } else if changed["Connected"]?.bool == true, let strap = straps[address], strap.link.state == .waiting || strap.link.state == .givenUp {
                // Connected on its own (or by another client): take it.
                straps[address]?.link.tryStarted(at: now)
                printStatus(of: address)
                if device.servicesResolved { setUp(address) }
            }
            if changed["ServicesResolved"]?.bool == true, straps[address]?.link.state == .connecting, straps[address]?.characteristic == nil {
                setUp(address)
            }
        }
    }

    // MARK: Connecting

    func tick() {
        let time = now
        for (address, strap) in straps {
            if strap.link.setupTimedOut(at: time) {
                fail(address, "connecting took longer than \(Int(StrapLink.setupTimeout)) s")
                if let path = strap.path { Task { [client] in try? await client.disconnect(device: path) } }
                continue
            }
            if strap.link.tryDue(at: time), let path = strap.path {
                straps[address]?.link.tryStarted(at: time)
                straps[address]?.characteristic = nil
                printStatus(of: address)
                let sink = self.sink
                Task { [client] in
                    do {
                        try await client.connect(device: path)
                        sink.yield(.connectFinished(address: address, error: nil))
                    } catch {
                        let remote = error as? DBusRemoteError
                        // Already connected is as good as connected.
                        sink.yield(.connectFinished(address: address, error: remote?.name == "org.bluez.Error.AlreadyConnected" ? nil : "\(error)"))
                    }
                }
            }
            if strap.link.state == .streaming, let characteristic = strap.batteryCharacteristic, time - strap.lastBatteryRead >= 60 {
                straps[address]?.lastBatteryRead = time
                readBattery(address, characteristic)
            }
        }
        if time - lastStatus >= statusInterval { printStatus(force: true) }
    }

    func connectFinished(_ address: String, error: String?) {
        guard let strap = straps[address], strap.link.state == .connecting else { return }
        if let error {
            fail(address, error)
            return
        }
        if let device = strap.path.flatMap(objects.device(at:)), device.servicesResolved { setUp(address) }
        // Otherwise ServicesResolved will come as a signal.
    }

    /// Services resolved: start the notifications of 0x2A37 and read the battery.
    func setUp(_ address: String) {
        guard let strap = straps[address], let path = strap.path, strap.characteristic == nil else { return }
        guard let measurement = objects.characteristic(BlueZ.heartRateMeasurement, of: path) else {
            // BlueZ may announce the characteristics after ServicesResolved; the
            // InterfacesAdded of the characteristic calls this again, the timeout ends it.
            return
        }
        straps[address]?.characteristic = measurement
        straps[address]?.batteryCharacteristic = objects.characteristic(BlueZ.batteryLevel, of: path)
        let sink = self.sink
        Task { [client] in
            do {
                try await client.startNotify(characteristic: measurement)
                sink.yield(.notifyFinished(address: address, characteristic: measurement, error: nil))
            } catch {
                sink.yield(.notifyFinished(address: address, characteristic: measurement, error: "\(error)"))
            }
        }
    }

    func notifyFinished(_ address: String, characteristic: String, error: String?) {
        guard let strap = straps[address], strap.link.state == .connecting, strap.characteristic == characteristic else { return }
        if let error {
            straps[address]?.characteristic = nil
            fail(address, error)
            return
        }
        straps[address]?.link.streaming()
        straps[address]?.lastError = nil
        if let battery = strap.batteryCharacteristic {
            straps[address]?.lastBatteryRead = now
            readBattery(address, battery)
        }
        printStatus(of: address)
    }

    func readBattery(_ address: String, _ characteristic: String) {
        let sink = self.sink
        Task { [client] in
            let bytes = try? await client.readValue(characteristic: characteristic)
            sink.yield(.battery(address: address, level: (bytes.flatMap { try? BatteryLevelCodec.decode($0) }).map { Int($0.percent) }))
        }
    }

    func fail(_ address: String, _ error: String) {
        straps[address]?.lastError = error
        straps[address]?.link.tryFailed(at: now)
        printStatus(of: address)
    }

    /// Discovery runs while a strap is still to be found or connected (always with `--all`).
    func updateDiscovery() async {
        let needed = all || straps.values.contains { $0.link.state != .streaming && $0.link.state != .givenUp }
        guard needed != discovering else { return }
        discovering = needed
        do {
            if needed { try await client.startDiscovery(adapter: adapterPath) } else { try await client.stopDiscovery(adapter: adapterPath) }
        } catch {
            logger.warning("\(needed ? "StartDiscovery" : "StopDiscovery") failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Readings

    func measurement(_ bytes: [UInt8], from address: String) {
        guard var strap = straps[address] else { return }
        let decoded: HeartRateMeasurement
        do {
            decoded = try HeartRateMeasurementCodec.decode(bytes)
        } catch {
            logger.warning("a notification that is not a heart-rate measurement", metadata: ["sensor": "\(address)", "error": "\(error)"])
            return
        }
        let (sequence, needsSave) = book.take(address)
        if needsSave { saveSpool(clean: false) }
        strap.lastMeasurement = decoded
        strap.lastSequence = sequence
        strap.readings += 1
        straps[address] = strap
        state.produce([
            GatewayReading(
                sensor: address, sequence: sequence, atMilliseconds: Int(Date().timeIntervalSince1970 * 1000), measurement: decoded, battery: strap.battery,
                rssi: strap.rssi.flatMap { (-127...20).contains($0) ? $0 : nil }, rawMeasurement: bytes)
        ])
    }

    /// Writes the spool: while running, the reservations (and what is unacknowledged so far);
    /// at a clean stop, the exact next numbers.
    func saveSpool(clean: Bool) {
        let spool = GatewaySpool(sequences: clean ? book.next : book.reservations, readings: state.unacknowledged, clean: clean)
        do {
            try spool.save(path: spoolPath)
        } catch {
            logger.error("could not write the spool", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Status

    func printStatus(of address: String) {
        guard let strap = straps[address] else { return }
        status.print(strap, pending: state.pendingCount(sensor: address))
    }

    func printStatus(force: Bool) {
        lastStatus = now
        for address in straps.keys.sorted() { printStatus(of: address) }
    }
}

/// One line a strap: text for people, or one JSON object a line (`--format json`).
struct GatewayStatusPrinter: Sendable {
    let json: Bool

    func line(_ strap: GatewayStrap, pending: Int) -> String {
        let measurement = strap.lastMeasurement
        if json {
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.field("sensor", strap.address)
            writer.field("name", strap.name)
            writer.field("state", strap.link.label)
            writer.field("failedTries", strap.link.failedTries)
            writer.field("bpm", measurement.map { Int($0.beatsPerMinute) })
            writer.field("battery", strap.battery)
            writer.field("rssi", strap.rssi)
            writer.field("seq", strap.lastSequence)
            writer.field("readings", strap.readings)
            writer.field("unacknowledged", pending)
            writer.field("error", strap.lastError)
            writer.endObject()
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        var parts: [String] = []
        if let measurement { parts.append("\(measurement.beatsPerMinute) bpm") }
        if let battery = strap.battery { parts.append("battery \(battery) %") }
        if let rssi = strap.rssi { parts.append("rssi \(rssi) dBm") }
        if let sequence = strap.lastSequence { parts.append("seq \(sequence)") }
        parts.append("\(strap.readings) readings")
        parts.append("\(pending) unacknowledged")
        if strap.link.state != .streaming, strap.link.failedTries > 0 { parts.append("try \(strap.link.failedTries)/\(StrapLink.maximumTries) failed") }
        if strap.link.state != .streaming, let error = strap.lastError { parts.append(error) }
        let name = strap.name.map { " (\($0))" } ?? ""
        return "\(strap.address)\(name) \(strap.link.label): " + parts.joined(separator: ", ")
    }

    /// Written at once (not through stdio's buffer), so a pipe or the journal sees each line
    /// as it happens.
    func print(_ strap: GatewayStrap, pending: Int) {
        FileHandle.standardOutput.write(Data((line(strap, pending: pending) + "\n").utf8))
    }
}
