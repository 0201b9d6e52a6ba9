import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Apple Health's export.xml (issue 11): the shape the Health app writes (a DOCTYPE with its
/// internal subset, `Me`, `Record` with metadata and HRV beat lists, `Workout` with a route),
/// read in any chunks.
@Suite("Apple Health export")
struct AppleHealthExportTests {
    static let watch = "&lt;&lt;HKDevice: 0x283d6ab20&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.4&gt;"

    /// A small export with known answers: two devices, a flight from Berlin (+0100) to New
    /// York (−0500), the night Berlin moves to summer time (samples tagged with their zone),
    /// an HRV reading with its beats, iOS 16 sleep stages, a run with a route, and body
    /// measurements in pounds and inches.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2026-04-02 09:00:00 -0500"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Apple Watch" sourceVersion="9.4" device="\(watch)" unit="count/min" creationDate="2026-03-27 08:01:02 +0100" startDate="2026-03-27 08:00:58 +0100" endDate="2026-03-27 08:00:58 +0100" value="72">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" creationDate="2026-03-27 09:10:00 +0100" startDate="2026-03-27 09:00:00 +0100" endDate="2026-03-27 09:10:00 +0100" value="812"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s Apple Watch" device="\(watch)" unit="count" creationDate="2026-03-27 09:10:00 +0100" startDate="2026-03-27 09:00:00 +0100" endDate="2026-03-27 09:10:00 +0100" value="790"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Apple Watch" device="\(watch)" unit="count/min" creationDate="2026-03-28 21:30:00 -0500" startDate="2026-03-28 21:30:00 -0500" endDate="2026-03-28 21:30:00 -0500" value="64"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Apple Watch" unit="count/min" creationDate="2026-03-29 00:30:00 +0000" startDate="2026-03-29 00:30:00 +0000" endDate="2026-03-29 00:30:00 +0000" value="55">
          <MetadataEntry key="HKMetadataKeyTimeZone" value="Europe/Berlin"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Apple Watch" unit="count/min" creationDate="2026-03-29 02:30:00 +0000" startDate="2026-03-29 02:30:00 +0000" endDate="2026-03-29 02:30:00 +0000" value="53">
          <MetadataEntry key="HKMetadataKeyTimeZone" value="Europe/Berlin"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Anna’s Apple Watch" device="\(watch)" unit="ms" creationDate="2026-03-30 07:01:10 +0200" startDate="2026-03-30 07:00:10 +0200" endDate="2026-03-30 07:01:10 +0200" value="48.5">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="61" time="7:00:11.02 AM"/>
           <InstantaneousBeatsPerMinute bpm="63" time="7:00:12.00 AM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Anna’s Apple Watch" unit="count/min" creationDate="2026-03-30 23:00:00 +0200" startDate="2026-03-30 00:00:00 +0200" endDate="2026-03-30 23:00:00 +0200" value="52"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Apple Watch" creationDate="2026-03-31 07:00:00 +0200" startDate="2026-03-30 23:10:00 +0200" endDate="2026-03-31 07:00:00 +0200" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Apple Watch" creationDate="2026-03-31 07:00:00 +0200" startDate="2026-03-31 01:00:00 +0200" endDate="2026-03-31 02:30:00 +0200" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Apple Watch" creationDate="2026-03-31 07:00:00 +0200" startDate="2026-03-31 02:30:00 +0200" endDate="2026-03-31 03:00:00 +0200" value="HKCategoryValueSleepAnalysisAsleepREM"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" creationDate="2026-03-31 07:30:00 +0200" startDate="2026-03-31 07:30:00 +0200" endDate="2026-03-31 07:30:00 +0200" value="143.3"/>
         <Record type="HKQuantityTypeIdentifierHeight" sourceName="Health" unit="in" creationDate="2026-01-01 10:00:00 +0100" startDate="2026-01-01 10:00:00 +0100" endDate="2026-01-01 10:00:00 +0100" value="66"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Anna’s Apple Watch" unit="kcal" creationDate="2026-03-31 08:00:00 +0200" startDate="2026-03-31 07:50:00 +0200" endDate="2026-03-31 08:00:00 +0200" value="12.5"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="1255" totalEnergyBurnedUnit="kJ" sourceName="Anna’s Apple Watch" device="\(watch)" creationDate="2026-03-31 18:32:00 +0200" startDate="2026-03-31 18:00:00 +0200" endDate="2026-03-31 18:31:30 +0200">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2026-03-31 18:00:00 +0200" endDate="2026-03-31 18:31:30 +0200" sum="300" unit="kcal"/>
          <WorkoutRoute sourceName="Anna’s Apple Watch" creationDate="2026-03-31 18:32:00 +0200" startDate="2026-03-31 18:00:00 +0200" endDate="2026-03-31 18:31:30 +0200">
           <FileReference path="/workout-routes/route_2026-03-31_6.31pm.gpx"/>
          </WorkoutRoute>
         </Workout>
         <ActivitySummary dateComponents="2026-03-31" activeEnergyBurned="450" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
        </HealthData>

        """

    static func read(_ text: String, chunk: Int) throws(AppleHealthReader.Failure) -> (items: [AppleHealthReader.Item], reader: AppleHealthReader) {
        var reader = AppleHealthReader()
        var items = [AppleHealthReader.Item]()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try reader.feed(bytes[start..<end]) { items.append($0) }
            start = end
        }
        try reader.finish()
        return (items, reader)
    }

    static func samples(_ items: [AppleHealthReader.Item]) -> [HealthSample] {
        items.compactMap { if case .sample(let s) = $0 { s } else { nil } }
    }

    @Test func readsEveryKindWithItsUnitsZonesAndDevices() throws {
        let (items, reader) = try Self.read(Self.export, chunk: 1 << 20)
        let samples = Self.samples(items)
        #expect(samples.count == 13)
        #expect(reader.skipped == ["HKQuantityTypeIdentifierActiveEnergyBurned": 1])
        // The owner.
        #expect(items.first == .owner(HealthOwner(dateOfBirth: CalendarDay(year: 1990, month: 5, day: 17), sex: .female)))
        // Heart rate: the instant, the offset of the place, the device's name out of its description.
        let first = samples[0]
        #expect(first.kind == .heartRate && first.value == 72 && first.utcOffsetSeconds == 3600)
        #expect(first.start == Date(timeIntervalSince1970: 1_774_594_858))  // 2026-03-27T07:00:58Z
        #expect(first.device == "Apple Watch" && first.source == "Anna’s Apple Watch")
        // Two devices counted the same steps: both are read, each with its source.
        let steps = samples.filter { $0.kind == .steps }
        #expect(steps.map(\.value) == [812, 790] && steps.map(\.device) == [nil, "Apple Watch"])
        // After the flight the offset is New York's, and the day is cut there.
        let newYork = samples[3]
        #expect(newYork.utcOffsetSeconds == -5 * 3600 && newYork.day == CalendarDay(year: 2026, month: 3, day: 28))
        // The DST night: the zone named in the metadata gives +1 h before 01:00 UTC, +2 h after.
        #expect(samples[4].utcOffsetSeconds == 3600 && samples[5].utcOffsetSeconds == 7200)
        #expect(samples[4].day == CalendarDay(year: 2026, month: 3, day: 29) && samples[5].day == CalendarDay(year: 2026, month: 3, day: 29))
        // HRV: SDNN in ms with its beats, seconds after the start.
        let hrv = samples[6]
        #expect(hrv.kind == .heartRateVariabilitySDNN && hrv.value == 48.5)
        #expect(hrv.beats?.map(\.beatsPerMinute) == [61, 63])
        #expect(abs((hrv.beats?.first?.timeSeconds ?? 0) - 1.02) < 1e-6 && abs((hrv.beats?.last?.timeSeconds ?? 0) - 2) < 1e-6)
        #expect(samples[7].kind == .restingHeartRate && samples[7].value == 52)
        // Sleep: in bed, deep, REM.
        let sleep = samples.filter { $0.kind == .sleep }.map { HealthSample.SleepStage(rawValue: Int($0.value)) }
        #expect(sleep == [.inBed, .deep, .rem])
        // Units: 143.3 lb, 66 in.
        let mass = try #require(samples.first { $0.kind == .bodyMass })
        #expect(abs(mass.value - 65.0) < 0.01)
        let height = try #require(samples.first { $0.kind == .height })
        #expect(abs(height.value - 1.6764) < 1e-9)
        // The run: kJ → kcal, km → m, the route inside the export.
        let workout = try #require(items.compactMap { if case .workout(let w) = $0 { w } else { nil } }.first)
        #expect(workout.sport == .running && workout.distanceMeters == 5200 && abs((workout.kilocalories ?? 0) - 299.95) < 0.01)
        #expect(workout.routePath == "workout-routes/route_2026-03-31_6.31pm.gpx" && workout.device == "Apple Watch")
        #expect(workout.end.timeIntervalSince(workout.start) == 31.5 * 60 && workout.utcOffsetSeconds == 7200)
    }

    @Test func anyChunkingReadsTheSame() throws {
        let whole = try Self.read(Self.export, chunk: 1 << 20).items
        for chunk in [1, 2, 3, 7, 64, 333, 4096] {
            #expect(try Self.read(Self.export, chunk: chunk).items == whole, "chunks of \(chunk)")
        }
    }

    @Test func faultsNameTheirLineAndKeepWhatCameBefore() throws {
        // Cut in the middle of a record: what came before is delivered, the end names the fault.
        let lines = Self.export.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(17).joined(separator: "\n") + "\n <Record type=\"HKQuantityTypeIdentifierHeartRate\" unit=\"count/"
        var reader = AppleHealthReader()
        var items = [AppleHealthReader.Item]()
        try reader.feed(Array(cut.utf8)) { items.append($0) }
        #expect(Self.samples(items).count == 3)
        #expect(throws: AppleHealthReader.Failure.self) { try reader.finish() }
        // Not an export.
        var other = AppleHealthReader()
        #expect(throws: AppleHealthReader.Failure(line: 2, message: "not an Apple Health export: the root element is <gpx>, not <HealthData>")) {
            try other.feed(Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">".utf8)) { _ in }
        }
        // A bad date names its line.
        let bad =
            "<HealthData>\n<Record type=\"HKQuantityTypeIdentifierHeartRate\" unit=\"count/min\" startDate=\"2026-02-30 08:00:00 +0100\" endDate=\"2026-02-30 08:00:00 +0100\" value=\"70\"/>\n</HealthData>"
        do {
            _ = try Self.read(bad, chunk: 100)
            Issue.record("a 30 February was accepted")
        } catch {
            #expect(error.line == 2 && error.message.contains("startDate"))
        }
        // Mismatched tags, an unknown unit, a huge tag.
        #expect(throws: AppleHealthReader.Failure.self) { try Self.read("<HealthData><Record type=\"x\"></Workout></HealthData>", chunk: 10) }
        let furlongs =
            "<HealthData><Record type=\"HKQuantityTypeIdentifierHeight\" unit=\"furlong\" startDate=\"2026-01-01 10:00:00 +0100\" endDate=\"2026-01-01 10:00:00 +0100\" value=\"1\"/></HealthData>"
        #expect(throws: AppleHealthReader.Failure.self) { try Self.read(furlongs, chunk: 50) }
        #expect(throws: AppleHealthReader.Failure.self) {
            try Self.read("<HealthData><Record type=\"" + String(repeating: "a", count: 1_100_000), chunk: 65_536)
        }
        #expect(throws: AppleHealthReader.Failure.self) { try Self.read("", chunk: 10) }
        #expect(throws: AppleHealthReader.Failure.self) { try Self.read("<HealthData a=\"&bogus;\"></HealthData>", chunk: 10) }
    }

    @Test func datesAndClockTimes() {
        #expect(AppleHealthReader.date("2026-03-27 08:00:58 +0100")?.1 == 3600)
        #expect(AppleHealthReader.date("2026-03-27 08:00:58 -0930")?.1 == -(9 * 3600 + 1800))
        for bad in ["2026-03-27 24:00:00 +0100", "2026-03-27T08:00:58+0100", "2026-13-01 08:00:00 +0000", "", "2026-03-27 08:00:58 +2500"] {
            #expect(AppleHealthReader.date(bad) == nil, "\(bad)")
        }
        #expect(AppleHealthReader.clockSeconds("12:00:01.50 AM") == 1.5)
        #expect(AppleHealthReader.clockSeconds("1:00:00 PM") == 13.0 * 3600)
        #expect(AppleHealthReader.clockSeconds("20:01:02,5") == 20.0 * 3600 + 62.5)
        #expect(AppleHealthReader.clockSeconds("13:00:00 PM") == nil)
    }
}
