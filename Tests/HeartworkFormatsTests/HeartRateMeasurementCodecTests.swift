import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

@Suite("Heart Rate Measurement codec (Bluetooth HRS 1.0 §3.1)")
struct HeartRateMeasurementCodecTests {
    private func decode(_ hex: String) throws -> HeartRateMeasurement {
        try HeartRateMeasurementCodec.decode(try HexBytes.parse(hex))
    }

    // Vectors: seed-001 digest §3.1 "Derived parser test vectors", decoded by the specification.

    @Test func eightBitHeartRateWithContactAndOneRR() throws {
        let m = try decode("16 48 00 04")
        #expect(m.beatsPerMinute == 72)
        #expect(m.sensorContact == .detected)
        #expect(m.energyExpendedKilojoules == nil)
        #expect(m.rrIntervalsMilliseconds == [1000.0])
    }

    @Test func contactNotAvailableAndTwoRRs() throws {
        let m = try decode("10 4B 20 03 40 03")
        #expect(m.beatsPerMinute == 75)
        #expect(m.sensorContact == .notSupported)
        #expect(m.rrIntervalsMilliseconds == [781.25, 812.5])
    }

    @Test func contactSupportedButNotDetected() throws {
        let m = try decode("14 48 00 04")
        #expect(m.sensorContact == .notDetected)
        #expect(m.rrIntervalsMilliseconds == [1000.0])
    }

    @Test func sixteenBitHeartRate() throws {
        let m = try decode("17 48 00 00 04")
        #expect(m.beatsPerMinute == 72)
        #expect(m.sensorContact == .detected)
        #expect(m.rrIntervalsMilliseconds == [1000.0])
    }

    /// The original app dropped packets with 5 or more RR values; the specification keeps them.
    @Test func fiveRRValuesAreAllKept() throws {
        let m = try decode("10 48 00 04 00 04 00 04 00 04 00 04")
        #expect(m.rrIntervalTicks == [1024, 1024, 1024, 1024, 1024])
    }

    /// The original app misread the energy field as an RR value (seed-001 §8.2).
    @Test func energyExpendedIsReadBeforeTheRRIntervals() throws {
        let m = try decode("18 50 E8 03 00 04")
        #expect(m.beatsPerMinute == 80)
        #expect(m.energyExpendedKilojoules == 1000)
        #expect(m.rrIntervalsMilliseconds == [1000.0])
    }

    @Test func heartRateAbove255NeedsSixteenBits() throws {
        let m = try decode("01 2C 01")
        #expect(m.beatsPerMinute == 300)
        #expect(try HeartRateMeasurementCodec.encode(m) == [0x01, 0x2C, 0x01])
    }

    @Test func reservedBitsAreIgnored() throws {
        #expect(try decode("E0 48").beatsPerMinute == 72)
    }

    @Test func malformedPayloadsNameTheByteOffset() throws {
        #expect(throws: HeartRateMeasurementDecodingError.empty) { try decode("") }
        #expect(throws: HeartRateMeasurementDecodingError.truncatedHeartRate(offset: 1, bitWidth: 8, available: 0)) {
            try decode("00")
        }
        #expect(throws: HeartRateMeasurementDecodingError.truncatedHeartRate(offset: 1, bitWidth: 16, available: 1)) {
            try decode("19 48")
        }
        #expect(throws: HeartRateMeasurementDecodingError.truncatedEnergyExpended(offset: 2, available: 1)) {
            try decode("08 48 E8")
        }
        #expect(throws: HeartRateMeasurementDecodingError.oddRRIntervalBytes(offset: 2, byteCount: 3)) {
            try decode("10 48 00 04 00")
        }
        let message = HeartRateMeasurementDecodingError.truncatedHeartRate(offset: 1, bitWidth: 16, available: 1).description
        #expect(message.contains("byte offset 1") && message.contains("16-bit heart rate"))
    }

    @Test func encodingRefusesMoreRRIntervalsThanOneNotificationHolds() {
        let m = HeartRateMeasurement(beatsPerMinute: 60, rrIntervalTicks: Array(repeating: 1024, count: 10))
        #expect(throws: HeartRateMeasurementEncodingError.tooManyRRIntervals(count: 10)) {
            try HeartRateMeasurementCodec.encode(m)
        }
    }

    /// Law: decode(encode(m)) == m for every valid measurement.
    @Test func roundTripOverRandomMeasurements() throws {
        var random = SplitMix64(seed: 0x2A37)
        for _ in 0..<5_000 {
            let m = HeartRateMeasurement(
                beatsPerMinute: Bool.random(using: &random) ? UInt16.random(in: 0...255, using: &random) : UInt16.random(in: 0...UInt16.max, using: &random),
                sensorContact: SensorContact.allCases.randomElement(using: &random)!,
                energyExpendedKilojoules: Bool.random(using: &random) ? UInt16.random(in: 0...UInt16.max, using: &random) : nil,
                rrIntervalTicks: (0..<Int.random(in: 0...9, using: &random)).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) })
            let bytes = try HeartRateMeasurementCodec.encode(m)
            #expect(try HeartRateMeasurementCodec.decode(bytes) == m)
        }
    }

    /// Nothing from outside may trap: random bytes either decode or throw.
    @Test func randomBytesNeverTrap() throws {
        var random = SplitMix64(seed: 0xF022)
        var decoded = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let m = try? HeartRateMeasurementCodec.decode(bytes) {
                decoded += 1
                if m.rrIntervalTicks.count <= 9, let again = try? HeartRateMeasurementCodec.encode(m) {
                    #expect(try HeartRateMeasurementCodec.decode(again) == m)
                }
            }
        }
        #expect(decoded > 1000)
    }
}

@Suite("Battery Level and Body Sensor Location")
struct SingleByteCharacteristicTests {
    @Test(arguments: [(0, 0), (19, 0), (20, 1), (39, 1), (40, 2), (60, 3), (79, 3), (80, 4), (100, 4)])
    func batteryShowsFiveTwentyPercentSteps(percent: UInt8, step: Int) throws {
        let level = try BatteryLevelCodec.decode([percent])
        #expect(level.step == step)
        #expect(BatteryLevelCodec.encode(level) == [percent])
    }

    @Test func malformedBatteryPayloads() {
        #expect(throws: SingleByteCharacteristicError.batteryAbove100(value: 101)) { try BatteryLevelCodec.decode([101]) }
        #expect(throws: SingleByteCharacteristicError.empty(characteristic: "Battery Level")) { try BatteryLevelCodec.decode([]) }
        #expect(throws: SingleByteCharacteristicError.tooLong(characteristic: "Battery Level", byteCount: 2)) {
            try BatteryLevelCodec.decode([50, 1])
        }
    }

    @Test func bodySensorLocations() throws {
        #expect(try BodySensorLocationCodec.decode([1]) == .chest)
        #expect(try BodySensorLocationCodec.decode([2]) == .wrist)
        #expect(try BodySensorLocationCodec.decode([200]) == .reserved(200))
        for raw in UInt8.min...UInt8.max {
            #expect(BodySensorLocationCodec.encode(BodySensorLocation(rawValue: raw)) == [raw])
        }
    }
}

@Suite("Hex text")
struct HexBytesTests {
    @Test func acceptsCommonSpellings() throws {
        #expect(try HexBytes.parse("16480004") == [0x16, 0x48, 0x00, 0x04])
        #expect(try HexBytes.parse("0x16 48:00-04") == [0x16, 0x48, 0x00, 0x04])
        #expect(try HexBytes.parse("  ab CD ") == [0xAB, 0xCD])
        #expect(HexBytes.format([0x16, 0xAB]) == "16AB")
    }

    @Test func rejectsWhatIsNotHex() {
        #expect(throws: HexBytesError.oddDigitCount) { try HexBytes.parse("164") }
        #expect(throws: HexBytesError.invalidCharacter("g", column: 2)) { try HexBytes.parse("1g") }
        #expect(throws: HexBytesError.invalidCharacter("z", column: 6)) { try HexBytes.parse(" 0x16z") }
        #expect(throws: HexBytesError.splitByte(column: 2)) { try HexBytes.parse("1 6") }
    }
}
