import ArgumentParser
import Foundation
import HeartworkCore
import HeartworkFormats

struct HRMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hrm",
        abstract: "Decode and encode Bluetooth heart-rate monitor payloads.",
        subcommands: [HRMDecodeCommand.self, HRMEncodeCommand.self]
    )
}

/// The Bluetooth characteristic a payload belongs to.
enum CharacteristicArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case heartRate = "heart-rate"
    case battery
    case location
}

struct HRMDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode hex payloads of Heart Rate Measurement (0x2A37), Battery Level or Body Sensor Location.",
        discussion: """
            Each packet prints one record. Malformed packets are reported on standard error \
            with the byte offset at fault; the exit code is then 1.

            Examples:
              heartwork hrm decode 16480004
              heartwork hrm decode "10 4B 20 03 40 03" 1A4800E8030004
              heartwork hrm decode --file packets.txt --format json
              heartwork hrm decode --characteristic battery 5A
            """
    )

    @Argument(help: "Payloads in hexadecimal (spaces, colons and a 0x prefix are allowed).")
    var packets: [String] = []

    @Option(help: "A file with one hex payload per line (blank lines and # comments are skipped).")
    var file: String?

    @Option(help: "Which characteristic the payloads are: heart-rate, battery or location.")
    var characteristic: CharacteristicArgument = .heartRate

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func validate() throws {
        if packets.isEmpty && file == nil {
            throw ValidationError("Give at least one hex payload, or --file with one payload per line.")
        }
    }

    func run() throws {
        let result = try decodeAll()
        if !result.records.isEmpty || format == .json { print(try result.render(format: format)) }
        for failure in result.failures { StandardError.write("error: \(failure)") }
        if !result.failures.isEmpty { throw ExitCode.failure }
    }

    /// Decodes every packet, keeping the good ones and a message per bad one.
    func decodeAll() throws -> HRMDecodeResult {
        var result = HRMDecodeResult()
        for (index, packet) in packets.enumerated() {
            decode(packet, source: "argument \(index + 1)", into: &result)
        }
        if let file {
            let reader = try TextLineReader(path: file)
            while let line = try reader.nextLine() {
                let content = line.trimmingCharacters(in: .whitespaces)
                if content.isEmpty || content.hasPrefix("#") { continue }
                decode(content, source: "\(file) line \(reader.lineNumber)", into: &result)
            }
        }
        return result
    }

    private func decode(_ text: String, source: String, into result: inout HRMDecodeResult) {
        do {
            let bytes = try HexBytes.parse(text)
            result.records.append(try DecodedPayload(bytes: bytes, characteristic: characteristic))
        } catch {
            result.failures.append("\(source) (\(text)): \(error)")
        }
    }
}

struct HRMDecodeResult {
    var records: [DecodedPayload] = []
    var failures: [String] = []

    func render(format: OutputFormat) throws -> String {
        switch format {
        case .json: try JSONOutput.render(records)
        case .table: records.map(\.summary).joined(separator: "\n")
        }
    }
}

/// One decoded payload as printed.
struct DecodedPayload: Encodable {
    let hex: String
    let characteristic: String
    var bpm: Int?
    var sensorContact: String?
    var energyExpendedKilojoules: Int?
    var rrIntervalsMilliseconds: [Double]?
    var batteryPercent: Int?
    var batteryStep: Int?
    var location: String?

    init(bytes: [UInt8], characteristic: CharacteristicArgument) throws {
        hex = HexBytes.format(bytes)
        self.characteristic = characteristic.rawValue
        switch characteristic {
        case .heartRate:
            let measurement = try HeartRateMeasurementCodec.decode(bytes)
            bpm = Int(measurement.beatsPerMinute)
            sensorContact = measurement.sensorContact.rawValue
            energyExpendedKilojoules = measurement.energyExpendedKilojoules.map(Int.init)
            rrIntervalsMilliseconds = measurement.rrIntervalsMilliseconds
        case .battery:
            let level = try BatteryLevelCodec.decode(bytes)
            batteryPercent = Int(level.percent)
            batteryStep = level.step
        case .location:
            location = try BodySensorLocationCodec.decode(bytes).name
        }
    }

    var summary: String {
        var parts = [hex + ":"]
        if let bpm { parts.append("\(bpm) bpm,") }
        if let sensorContact {
            let wording =
                switch sensorContact {
                case SensorContact.detected.rawValue: "contact detected,"
                case SensorContact.notDetected.rawValue: "no skin contact,"
                default: "contact not supported,"
                }
            parts.append(wording)
        }
        if let energyExpendedKilojoules { parts.append("energy \(energyExpendedKilojoules) kJ,") }
        if let rrIntervalsMilliseconds {
            let values = rrIntervalsMilliseconds.map { "\($0.formattedWithAtLeastOneDecimal) ms" }
            parts.append("RR [\(values.joined(separator: ", "))]")
        }
        if let batteryPercent, let batteryStep {
            let bars = String(repeating: "█", count: batteryStep + 1) + String(repeating: "░", count: 4 - batteryStep)
            parts.append("battery \(batteryPercent) % \(bars)")
        }
        if let location { parts.append("sensor on the \(location)") }
        var text = parts.joined(separator: " ")
        if text.hasSuffix(",") { text.removeLast() }
        return text
    }
}

struct HRMEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a Heart Rate Measurement payload as hex.",
        discussion: """
            Uses an 8-bit heart rate when it fits, 16-bit otherwise.

            Examples:
              heartwork hrm encode --bpm 72 --rr 1000
              heartwork hrm encode --bpm 300 --contact detected --energy-kj 1200 --rr 781.25 --rr 812.5
            """
    )

    @Option(help: "Heart rate in bpm (0–65535).")
    var bpm: UInt16

    @Option(help: "An RR interval in milliseconds; repeat for up to 9 (rounded to 1/1024 s).")
    var rr: [Double] = []

    @Option(help: "Sensor contact: not-supported, not-detected or detected.")
    var contact: SensorContactArgument = .notSupported

    @Option(name: .customLong("energy-kj"), help: "Energy expended in kilojoules (0–65535).")
    var energyKilojoules: UInt16?

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        var ticks = [UInt16]()
        for milliseconds in rr {
            guard let value = RRIntervalUnit.ticks(fromMilliseconds: milliseconds) else {
                throw CommandFailure("--rr \(milliseconds) is not an interval between 0 and 63999 ms")
            }
            ticks.append(value)
        }
        let measurement = HeartRateMeasurement(
            beatsPerMinute: bpm, sensorContact: contact.value,
            energyExpendedKilojoules: energyKilojoules, rrIntervalTicks: ticks)
        return HexBytes.format(try HeartRateMeasurementCodec.encode(measurement))
    }
}

enum SensorContactArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case notSupported = "not-supported"
    case notDetected = "not-detected"
    case detected

    var value: SensorContact {
        switch self {
        case .notSupported: .notSupported
        case .notDetected: .notDetected
        case .detected: .detected
        }
    }
}
