import Foundation
import HeartworkCore
import HeartworkTestSupport
import Testing

@testable import HeartworkFormats

@Suite("Activity files: TCX, GPX, JSON and the round trip through every format")
struct ActivityFileTests {
    static func randomWorkout(_ random: inout SplitMix64, outdoor: Bool) -> NewWorkout {
        let start = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next() % 50_000_000))
        let seconds = Int(random.next() % 900) + 2
        var heartRate = (0..<seconds).map { _ -> Int? in random.next() % 11 == 0 ? nil : Int(random.next() % 150) + 50 }
        heartRate[0] = 100
        var track = [NewWorkout.TrackPoint]()
        if outdoor {
            var lat = Double(Int(random.next() % 1_400_000) - 700_000) / 10_000
            var lon = Double(Int(random.next() % 3_400_000) - 1_700_000) / 10_000
            for second in 0..<seconds {
                lat += Double(Int(random.next() % 200) - 100) * 1e-6
                lon += Double(Int(random.next() % 200) - 100) * 1e-6
                let ele = random.next() % 7 == 0 ? nil : Double(Int(random.next() % 300_000)) / 100 - 100
                track.append(
                    NewWorkout.TrackPoint(
                        latitudeDegrees: (lat * 1e7).rounded() / 1e7, longitudeDegrees: (lon * 1e7).rounded() / 1e7,
                        elevationMeters: ele, timeSeconds: Double(second)))
            }
        }
        let sports: [Sport] = [.running, .cycling, .other]
        return NewWorkout(
            sport: sports[Int(random.next() % 3)], startTime: start, indoor: !outdoor, heartRate: heartRate,
            rrIntervalsMilliseconds: (0..<Int(random.next() % 40)).map { _ in Double(random.next() % 1200 + 300) }, track: track,
            distanceMeters: Double(random.next() % 4_000_000) / 100, kilocalories: Double(random.next() % 2000), device: "Device \(random.next() % 100)")
    }

    static func expectSameSamples(_ a: NewWorkout, _ b: NewWorkout, _ format: ActivityFileFormat) {
        #expect(b.startTime == a.startTime, "\(format)")
        // GPX keeps heart rate only where there is a position: here every second has one.
        var expectedHeartRate = a.heartRate
        while expectedHeartRate.last == .some(nil) { expectedHeartRate.removeLast() }
        var got = b.heartRate
        while got.last == .some(nil) { got.removeLast() }
        #expect(got == expectedHeartRate, "\(format): heart rate")
        #expect(b.track.count == a.track.count, "\(format): track")
        for (p, q) in zip(a.track, b.track) {
            #expect(abs(p.latitudeDegrees - q.latitudeDegrees) < 1e-6 && abs(p.longitudeDegrees - q.longitudeDegrees) < 1e-6, "\(format)")
            #expect(p.timeSeconds == q.timeSeconds && (p.elevationMeters == nil) == (q.elevationMeters == nil), "\(format)")
            #expect(abs((p.elevationMeters ?? 0) - (q.elevationMeters ?? 0)) <= 0.2 + 1e-9, "\(format)")
        }
        #expect(b.device == a.device, "\(format): device")
    }

    /// decode ∘ encode = identity on the fields each format holds, for random workouts.
    @Test(arguments: ActivityFileFormat.allCases)
    func everyFormatGivesTheWorkoutBack(_ format: ActivityFileFormat) throws {
        var random = SplitMix64(seed: 2026 + UInt64(format.rawValue.count))
        for round in 0..<25 {
            let outdoor = format == .gpx || round % 3 != 0
            let workout = Self.randomWorkout(&random, outdoor: outdoor)
            let bytes = try ActivityFiles.bytes(of: workout, format: format)
            #expect(ActivityFileFormat(sniffing: bytes) == format)
            if format != .json, format != .fit {
                #expect(ActivityFiles.recording(bytes, format: format)?.warnings == [])
            }
            let back = try ActivityFiles.workout(bytes, format: format)
            Self.expectSameSamples(workout, back, format)
            switch format {
            case .json:
                #expect(back == workout)
            case .fit:
                #expect(back.sport == workout.sport && back.rrIntervalsMilliseconds == workout.rrIntervalsMilliseconds)
                #expect(abs((back.distanceMeters ?? -1) - (workout.distanceMeters ?? 0)) < 0.005 + 1e-9)
                #expect(back.kilocalories == workout.kilocalories)
            case .tcx:
                #expect(back.sport == workout.sport)
                #expect(abs((back.distanceMeters ?? -1) - (workout.distanceMeters ?? 0)) < 0.005 + 1e-9)
                #expect(back.kilocalories == workout.kilocalories)
            case .gpx:
                #expect(back.sport == workout.sport)
            }
        }
    }

    @Test func anIndoorWorkoutHasNoGPX() {
        var random = SplitMix64(seed: 5)
        let workout = Self.randomWorkout(&random, outdoor: false)
        #expect(throws: ActivityFileError.self) { try ActivityFiles.bytes(of: workout, format: .gpx) }
    }

    /// Prefixes and namespaces as real files spell them: the GPX elements themselves prefixed,
    /// TrackPointExtension v1 under `ns3:` and v2 under `gpxtpx:`, a point without a time, a
    /// comment, CDATA, an entity in the creator.
    @Test func gpxWithPrefixesAndBothExtensionVersions() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- exported -->
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
                   xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" creator="Edge &amp; Co" version="1.1">
              <g:metadata><g:time>2026-06-01T06:29:00Z</g:time></g:metadata>
              <g:trk><g:name><![CDATA[Morning <ride>]]></g:name><g:type>cycling</g:type>
                <g:trkseg>
                  <g:trkpt lat="48.2000000" lon="16.3700000"><g:ele>180.4</g:ele><g:time>2026-06-01T06:30:00Z</g:time>
                    <g:extensions><ns3:TrackPointExtension><ns3:atemp>21</ns3:atemp><ns3:hr>121</ns3:hr><ns3:cad>80</ns3:cad></ns3:TrackPointExtension></g:extensions></g:trkpt>
                  <g:trkpt lat="48.2000100" lon="16.3700200"><g:time>2026-06-01T06:30:01.500Z</g:time>
                    <g:extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>122</gpxtpx:hr></gpxtpx:TrackPointExtension></g:extensions></g:trkpt>
                  <g:trkpt lat="48.3" lon="16.4"><g:ele>1</g:ele></g:trkpt>
                </g:trkseg>
                <g:trkseg><g:trkpt lat="-48.25" lon="-16.5"><g:time>2026-06-01T06:30:03Z</g:time></g:trkpt></g:trkseg>
              </g:trk>
            </g:gpx>
            """
        let activity = ActivityXMLReader.read(Array(text.utf8))
        #expect(activity.creator == "Edge & Co" && activity.sessions.first?.sport == 2)
        #expect(activity.records.count == 3)
        #expect(activity.records[0].heartRate == 121 && activity.records[0].cadence == 80 && activity.records[0].temperature == 21 && activity.records[0].altitude == 180.4)
        #expect(activity.records[1].heartRate == 122 && activity.records[1].time.timeIntervalSince(activity.records[0].time) == 1.5)
        #expect(activity.records[2].latitude == -48.25 && activity.records[2].heartRate == nil)
        #expect(activity.warnings.map(\.message) == ["1 track point without a time left out (a route, not a recording?)"])
        let workout = try ActivityWorkout.newWorkout(from: activity)
        #expect(workout.heartRate == [121, 122, nil, nil] && workout.track.count == 3 && workout.sport == .cycling && workout.device == "Edge & Co")
    }

    @Test func tcxLapsTrackpointsAndExtensions() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
             <Activities><Activity Sport="Running"><Id>2026-06-01T06:30:00.000Z</Id>
              <Lap StartTime="2026-06-01T06:30:00.000Z"><TotalTimeSeconds>2</TotalTimeSeconds><DistanceMeters>6.5</DistanceMeters><Calories>12</Calories>
               <AverageHeartRateBpm><Value>130</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>140</Value></MaximumHeartRateBpm><Intensity>Active</Intensity>
               <Track>
                <Trackpoint><Time>2026-06-01T06:30:00.000Z</Time><Position><LatitudeDegrees>48.2</LatitudeDegrees><LongitudeDegrees>16.37</LongitudeDegrees></Position>
                 <AltitudeMeters>180</AltitudeMeters><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm>
                 <Extensions><ns3:TPX><ns3:Speed>3.2</ns3:Speed><ns3:RunCadence>88</ns3:RunCadence></ns3:TPX></Extensions></Trackpoint>
                <Trackpoint><Time>2026-06-01T06:30:01.000Z</Time><HeartRateBpm><Value>abc</Value></HeartRateBpm></Trackpoint>
               </Track></Lap>
              <Lap StartTime="2026-06-01T06:30:02Z"><TotalTimeSeconds>1</TotalTimeSeconds><DistanceMeters>3.5</DistanceMeters><Calories>8</Calories>
               <Track><Trackpoint><Time>2026-06-01T06:30:02Z</Time><HeartRateBpm><Value>140</Value></HeartRateBpm><Cadence>90</Cadence>
                <Extensions><ns3:TPX><ns3:Watts>250</ns3:Watts></ns3:TPX></Extensions></Trackpoint></Track></Lap>
              <Creator xsi:type="Device_t"><Name>Forerunner 965</Name><UnitId>3344</UnitId></Creator>
             </Activity><Activity Sport="Biking"><Id>2026-06-02T06:30:00Z</Id></Activity></Activities>
            </TrainingCenterDatabase>
            """
        let activity = ActivityXMLReader.read(Array(text.utf8))
        #expect(activity.records.count == 3 && activity.laps.count == 2)
        #expect(activity.records[0].speed == 3.2 && activity.records[0].cadence == 88 && activity.records[0].latitude == 48.2)
        #expect(activity.records[1].heartRate == nil && activity.records[2].power == 250 && activity.records[2].cadence == 90)
        #expect(activity.sessions.first?.sport == 1 && activity.sessions.first?.calories == 20 && activity.sessions.first?.distance == 10)
        #expect(activity.laps[0].end == activity.laps[0].start?.addingTimeInterval(2) && activity.laps[0].averageHeartRate == 130)
        #expect(activity.device == "Forerunner 965/3344")
        #expect(
            activity.warnings.map(\.description) == [
                "line 10: HeartRateBpm 'abc' is not a number; left out", "line 1: the file holds 2 activities; the first was read",
            ])
        let workout = try ActivityWorkout.newWorkout(from: activity)
        #expect(workout.heartRate == [120, nil, 140] && workout.kilocalories == 20 && workout.distanceMeters == 10 && workout.sport == .running)
    }

    /// A cut file keeps what came before the fault, and the warning names the line.
    @Test func malformedXMLKeepsWhatCameBeforeTheFault() throws {
        var random = SplitMix64(seed: 9)
        let workout = Self.randomWorkout(&random, outdoor: true)
        let whole = try ActivityFiles.bytes(of: workout, format: .gpx)
        let cut = Array(whole.prefix(whole.count / 2))
        let activity = ActivityXMLReader.read(cut)
        #expect(activity.records.count > 10 && activity.records.count < workout.track.count)
        let warning = try #require(activity.warnings.last)
        #expect(warning.line ?? 0 > 10 && warning.message.contains("what came before it was kept"), "\(warning)")
        #expect(try ActivityFiles.workout(cut, format: .gpx).heartRate.count > 10)

        for (bytes, expected) in [
            (Array("<html><body>no</body></html>".utf8), "not a GPX or TCX"),
            (Array("not xml at all".utf8), "not a GPX or TCX"),
            ([UInt8](), "not a GPX or TCX"),
        ] {
            #expect(throws: ActivityFileError.self) { try ActivityFiles.workout(bytes, format: .gpx) }
            #expect(ActivityXMLReader.read(bytes).warnings.first?.message.contains(expected) == true, "\(ActivityXMLReader.read(bytes).warnings)")
        }
        // A TCX sent as GPX is named for what it is.
        let tcx = try ActivityFiles.bytes(of: workout, format: .tcx)
        do {
            _ = try ActivityFiles.workout(tcx, format: .gpx)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "the file is TCX, not GPX")
        }
        // An external entity is not resolved (no file is read into the workout).
        let xxe =
            "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><gpx creator=\"&x;\"><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>2026-01-01T00:00:00Z</time><extensions><hr>100</hr></extensions></trkpt></trkseg></trk></gpx>"
        #expect(ActivityXMLReader.read(Array(xxe.utf8)).creator?.contains("root") != true)
    }

    @Test func formatsByMediaTypeExtensionAndContent() {
        #expect(ActivityFileFormat(mediaType: "application/vnd.ant.fit") == .fit)
        #expect(ActivityFileFormat(mediaType: "application/GPX+xml; charset=utf-8") == .gpx)
        #expect(ActivityFileFormat(mediaType: "application/vnd.garmin.tcx+xml") == .tcx)
        #expect(ActivityFileFormat(mediaType: "text/plain") == nil)
        #expect(ActivityFileFormat(path: "/a/b/Ride.FIT") == .fit && ActivityFileFormat(path: "x.tcx") == .tcx && ActivityFileFormat(path: "noext") == nil)
        #expect(ActivityFileFormat(sniffing: Array("\u{FEFF}  {\"sport\":1}".utf8)) == .json)
        #expect(ActivityFileFormat(sniffing: Array("<?xml version=\"1.0\"?><!-- c --><TrainingCenterDatabase>".utf8)) == .tcx)
        #expect(ActivityFileFormat(sniffing: Array("hello".utf8)) == nil)
    }

    @Test func timestampsAreUTCWithMillisecondsWhenThereAreAny() {
        #expect(ActivityXMLWriter.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ActivityXMLWriter.timestamp(Date(timeIntervalSince1970: 1_780_295_400.25)) == "2026-06-01T06:30:00.250Z")
        #expect(ActivityXMLWriter.timestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ActivityXMLWriter.timestamp(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    /// The files CI's `Tests/Reference/xml_crosscheck.py` reads with gpxpy and tcxreader.
    @Test func writesFilesForTheGpxpyAndTcxreaderCrossCheck() throws {
        var track = [NewWorkout.TrackPoint]()
        var heartRate = [Int?]()
        for i in 0..<300 {
            track.append(
                NewWorkout.TrackPoint(
                    latitudeDegrees: 48.2 + Double(i) * 1e-5, longitudeDegrees: 16.37 - Double(i) * 2e-5,
                    elevationMeters: i % 17 == 3 ? nil : 200 + Double(i % 40) / 4, timeSeconds: Double(i)))
            heartRate.append(i % 50 == 7 ? nil : 100 + i % 60)
        }
        let start = Date(timeIntervalSince1970: 1_780_295_400)
        let workout = NewWorkout(sport: .running, startTime: start, heartRate: heartRate, track: track, distanceMeters: 1046.5, kilocalories: 250)
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("artifacts/files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(try ActivityFiles.bytes(of: workout, format: .gpx, name: "Cross-check run")).write(to: directory.appendingPathComponent("heartwork-encoded.gpx"))
        try Data(try ActivityFiles.bytes(of: workout, format: .tcx)).write(to: directory.appendingPathComponent("heartwork-encoded.tcx"))
        let expected: [String: Any] = [
            "sport": "running", "start": Int(start.timeIntervalSince1970), "distanceMeters": 1046.5, "kilocalories": 250.0,
            "points": track.enumerated().map { i, p -> [String: Any] in
                [
                    "t": Int(start.timeIntervalSince1970) + i, "hr": heartRate[i] as Any, "lat": p.latitudeDegrees, "lon": p.longitudeDegrees,
                    "ele": p.elevationMeters as Any,
                ]
            },
        ]
        try JSONSerialization.data(withJSONObject: expected).write(to: directory.appendingPathComponent("heartwork-encoded.expected.json"))
    }
}

/// Golden values: GPX and TCX files in the styles Garmin Connect, Strava and Garmin devices
/// write (`scripts/make_xml_fixtures.py`), every point compared with what gpxpy and tcxreader
/// (PyPI) read from the same files (`*.expected.json`).
@Suite("Activity files: gpxpy and tcxreader golden values")
struct ActivityFileGoldenTests {
    static func fixture(_ folder: String, _ name: String) throws -> ([UInt8], [String: Any]) {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/\(folder)"))
        let expectedURL = url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".expected.json")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any])
        return (Array(try Data(contentsOf: url)), expected)
    }

    static func close(_ a: Double?, _ b: Any?, _ tolerance: Double) -> Bool {
        let expected = (b as? Double) ?? (b as? Int).map(Double.init)
        if a == nil || expected == nil { return a == nil && expected == nil }
        return abs((a ?? 0) - (expected ?? 0)) <= tolerance
    }

    @Test(arguments: ["garmin-connect.gpx", "strava.gpx", "v2-prefixed.gpx", "garmin.tcx", "indoor.tcx"])
    func everyPointAsTheIndependentParserReadsIt(_ name: String) throws {
        let folder = name.hasSuffix(".gpx") ? "gpx" : "tcx"
        let (bytes, expected) = try Self.fixture(folder, name)
        #expect(ActivityFileFormat(sniffing: bytes)?.rawValue == folder)
        let activity = ActivityXMLReader.read(bytes)
        #expect(activity.warnings.isEmpty, "\(activity.warnings)")
        let points = try #require(expected["points"] as? [[String: Any]])
        #expect(activity.records.count == points.count)
        for (record, point) in zip(activity.records, points) {
            #expect(Int(record.time.timeIntervalSince1970) == point["t"] as? Int)
            #expect(Self.close(record.latitude, point["lat"], 1e-9) && Self.close(record.longitude, point["lon"], 1e-9), "\(point)")
            #expect(Self.close(record.altitude, point["ele"], 1e-6), "\(record.altitude as Any) \(point)")
            #expect(record.heartRate == point["hr"] as? Int && record.cadence == point["cad"] as? Int, "\(point)")
            if folder == "gpx" {
                #expect(Self.close(record.temperature.map(Double.init), point["atemp"], 0.5), "\(point)")
            } else {
                #expect(Self.close(record.distance, point["dist"], 1e-6) && record.power == point["watts"] as? Int, "\(point)")
            }
            #expect(Self.close(record.speed, point["speed"], 1e-6), "\(point)")
        }
        let heartRate = try #require(expected["heartRate"] as? [String: Any])
        #expect(activity.records.compactMap(\.heartRate).reduce(0, +) == heartRate["sum"] as? Int)
        if folder == "gpx" {
            #expect(activity.creator == expected["creator"] as? String)
            let sport = expected["type"] as? String == "1" ? 2 : 1
            #expect(activity.sessions.first?.sport == sport)
        } else {
            let creator = try #require(expected["creator"] as? [String: Any])
            #expect(activity.creator == creator["name"] as? String && activity.serialNumber == (creator["unitId"] as? Int).map(UInt64.init))
            #expect(activity.sessions.first?.sport == (expected["sport"] as? String == "Biking" ? 2 : 0))
            #expect(activity.sessions.first?.calories == expected["totalCalories"] as? Int)
            #expect(Self.close(activity.sessions.first?.distance, expected["totalDistanceMeters"], 1e-3))
            let laps = try #require(expected["laps"] as? [[String: Any]])
            #expect(activity.laps.count == laps.count)
            for (lap, want) in zip(activity.laps, laps) {
                #expect(lap.start.map { Int($0.timeIntervalSince1970) } == want["startTime"] as? Int)
                #expect(Self.close(lap.elapsedSeconds, want["totalTimeSeconds"], 1e-9) && Self.close(lap.distance, want["distanceMeters"], 1e-3))
                #expect(lap.averageHeartRate == want["averageHeartRate"] as? Int && lap.maximumHeartRate == want["maximumHeartRate"] as? Int)
            }
        }
        // And as a workout: the heart rate on the 1 Hz grid, the track where there are positions.
        let workout = try ActivityFiles.workout(bytes, format: ActivityFileFormat(rawValue: folder) ?? .gpx)
        #expect(workout.heartRate.compactMap { $0 }.count <= heartRate["count"] as? Int ?? 0)
        #expect(workout.track.count == activity.records.filter { $0.latitude != nil }.count)
    }
}

/// Inputs the fuzzers found (scripts/fuzz.sh), kept as regression tests.
@Suite("Activity files: fuzzer findings")
struct ActivityFuzzFindingTests {
    /// Target tcx, .build-fuzz/crash-tcx-crash-3aa5484a…: one flipped bit made "<Position>" into
    /// "<Po\u{F3}ition>", a name that is not UTF-8, on which FoundationXML's XMLParser traps. The
    /// reader now stops before the bad byte, keeps what came before and says where.
    @Test func anElementNameThatIsNotUTF8EndsTheReadingNotTheProcess() throws {
        let url = try #require(Bundle.module.url(forResource: "crash-not-utf8-element-name", withExtension: "tcx", subdirectory: "Resources/fuzz"))
        let bytes = [UInt8](try Data(contentsOf: url))
        let recording = ActivityXMLReader.read(bytes)
        #expect(recording.warnings.first?.message == "byte 1186 (0xF3) is not UTF-8: the file was read up to there")
        #expect(recording.warnings.first?.line == 16)
        #expect(!recording.records.isEmpty, "the trackpoints before the bad byte are kept")
        #expect(ActivityXMLReader.firstInvalidUTF8(Array("<gpx>é€😀</gpx>".utf8)) == nil)
        #expect(ActivityXMLReader.firstInvalidUTF8([0x3C, 0xC0, 0x80]) == 1, "overlong")
        #expect(ActivityXMLReader.firstInvalidUTF8([0x3C, 0xED, 0xA0, 0x80]) == 1, "a surrogate")
        #expect(ActivityXMLReader.firstInvalidUTF8([0x3C, 0xE2, 0x82]) == 1, "cut short")
        #expect(
            ActivityXMLReader.firstInvalidUTF8(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx>\u{E9}</gpx>".utf8).map { $0 == 0xC3 ? 0xE9 : $0 }) == nil,
            "another declared encoding is libxml2's to convert")
    }

    /// Target gpx, .build-fuzz/crash-gpx-crash-201c6980… (in CI): the declaration's encoding
    /// garbled into "UTF\u{FF}\u{FF}…-8", which libxml2 does not know and reads as raw bytes, so
    /// names that are not UTF-8 reached FoundationXML again. Unknown encodings are checked as UTF-8.
    @Test func aGarbledEncodingDeclarationIsCheckedAsUTF8() throws {
        let url = try #require(Bundle.module.url(forResource: "crash-garbled-encoding", withExtension: "gpx", subdirectory: "Resources/fuzz"))
        let recording = ActivityXMLReader.read([UInt8](try Data(contentsOf: url)))
        #expect(recording.warnings.first?.message == "byte 33 (0xFF) is not UTF-8: the file was read up to there")
        #expect(recording.records.isEmpty)
        #expect(ActivityXMLReader.firstInvalidUTF8(Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><gpx>".utf8) + [0x80]) == 50)
    }

    /// Target gpx, .build-fuzz/crash-gpx-crash-d9655c95…: `<?n?>`, a processing instruction
    /// without data, made FoundationXML call strlen(NULL). Processing instructions after the
    /// declaration are blanked out (lines kept); a NUL byte ends the reading like a bad byte.
    @Test func processingInstructionsAndNULsAreHarmless() throws {
        for name in ["crash-empty-processing-instruction", "crash-pi-named-xml"] {
            let url = try #require(Bundle.module.url(forResource: name, withExtension: "gpx", subdirectory: "Resources/fuzz"))
            _ = ActivityXMLReader.read([UInt8](try Data(contentsOf: url)))
        }
        _ = ActivityXMLReader.read(Array("<?xml?>\n<nceOTF-7UrDer".utf8))  // the tcx target's (crash-tcx-crash-389497cc…)
        #expect(ActivityXMLReader.prepared(Array("<?xml?><a/>".utf8)).bytes == Array("       <a/>".utf8))
        #expect(ActivityXMLReader.prepared(Array("<?xml version=\"1.0\"?><a/>".utf8)).bytes == Array("<?xml version=\"1.0\"?><a/>".utf8))
        let gpx =
            "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.xsl\"?>\n<?n?>\n<gpx version=\"1.1\" creator=\"x\"><trk><trkseg>\n<?p\n?><trkpt lat=\"48.2\" lon=\"16.3\"><time>2026-06-01T06:30:00Z</time></trkpt>\n</trkseg></trk></gpx>\n"
        let recording = ActivityXMLReader.read(Array(gpx.utf8))
        #expect(recording.records.count == 1 && recording.records.first?.latitude == 48.2)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        let prepared = ActivityXMLReader.prepared(Array(gpx.utf8)).bytes
        #expect(prepared.count == gpx.utf8.count && prepared.filter { $0 == 0x0A }.count == gpx.filter { $0 == "\n" }.count)
        let entity = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY e \"&#60;?n?&#62;\">]>\n<gpx>&e;</gpx>"
        let doctype = ActivityXMLReader.read(Array(entity.utf8))
        #expect(doctype.warnings.first?.message == "byte 22: a DOCTYPE declaration, which GPX and TCX files do not have: the file was read up to there")
        #expect(doctype.warnings.first?.line == 2)
        let utf16: [UInt8] = Array("<gpx/>".utf8).flatMap { [$0, UInt8(0)] }
        let refused = ActivityXMLReader.read(utf16)
        #expect(refused.warnings.first?.message.contains("is NUL") == true && refused.records.isEmpty)
    }
}
