import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Health Auto Export's REST API payloads (issue 24), built from the app's documented JSON
/// format (help.healthyapps.dev/en/health-auto-export/export-format: "Health Metrics",
/// "Workouts" version 2; the wiki page "API Export - JSON Format" of
/// github.com/Lybron/health-auto-export): every metric form Heartwork reads, both sleep
/// forms, pounds, inches, miles and kilojoules, and what it does not read.
@Suite("Health Auto Export payloads")
struct HealthAutoExportTests {
    static let payload = """
        {"data": {
          "metrics": [
            {"name": "heart_rate", "units": "count/min", "data": [
              {"date": "2026-11-26 08:00:00 +0100", "Min": 58, "Avg": 61.5, "Max": 66, "source": "Anna’s Apple Watch"},
              {"date": "2026-11-26 08:01:00 +0100", "Min": 60, "Avg": 63, "Max": 70, "source": "Anna’s Apple Watch"},
              {"date": "2026-11-26 08:02:00 +0100", "Min": 90, "Avg": 63, "Max": 70, "source": "Anna’s Apple Watch"},
              {"Min": 60, "Avg": 63, "Max": 70}
            ]},
            {"name": "resting_heart_rate", "units": "count/min", "data": [{"qty": 52, "date": "2026-11-26 00:00:00 +0100"}]},
            {"name": "walking_heart_rate_average", "units": "count/min", "data": [{"qty": 97, "date": "2026-11-26 00:00:00 +0100"}]},
            {"name": "heart_rate_variability", "units": "ms", "data": [{"qty": 48.2, "date": "2026-11-26 03:10:00 +0100"}]},
            {"name": "step_count", "units": "count", "data": [
              {"qty": 812, "date": "2026-11-26 09:00:00 +0100"},
              {"qty": 1504, "date": "2026-11-26 10:00:00 +0100"},
              {"qty": 33, "date": "2026-11-26 12:00:00 +0100"}
            ]},
            {"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2026-11-26", "totalSleep": 7.25, "asleep": 0, "core": 4.5, "deep": 1.25, "rem": 1.5, "awake": 0.25,
               "sleepStart": "2026-11-25 23:30:00 +0100", "sleepEnd": "2026-11-26 07:00:00 +0100",
               "inBed": 7.75, "inBedStart": "2026-11-25 23:10:00 +0100", "inBedEnd": "2026-11-26 07:05:00 +0100", "source": "Anna’s Apple Watch"}
            ]},
            {"name": "weight_body_mass", "units": "lb", "data": [{"qty": 154.3, "date": "2026-11-26 07:10:00 +0100", "source": "Withings"}]},
            {"name": "height", "units": "in", "data": [{"qty": 66, "date": "2026-11-20 12:00:00 +0100"}]},
            {"name": "blood_pressure", "units": "mmHg", "data": [
              {"date": "2026-11-26 07:15:00 +0100", "systolic": 121, "diastolic": 79},
              {"date": "2026-11-26 19:15:00 +0100", "systolic": 118, "diastolic": 77}
            ]}
          ],
          "workouts": [
            {"id": "550E8400-E29B-41D4-A716-446655440000", "name": "Outdoor Run",
             "start": "2026-11-26 17:00:00 +0100", "end": "2026-11-26 17:30:00 +0100", "duration": 1800,
             "location": "Outdoor", "isIndoor": false,
             "activeEnergyBurned": {"qty": 1464.4, "units": "kJ"}, "distance": {"qty": 3.1, "units": "mi"},
             "totalEnergy": {"qty": 450, "units": "kcal"}, "intensity": {"qty": 8.5, "units": "MET"},
             "heartRateData": [
               {"date": "2026-11-26 17:00:00 +0100", "Min": 100, "Avg": 104, "Max": 110, "units": "count/min", "source": "Anna’s Apple Watch"},
               {"date": "2026-11-26 17:01:00 +0100", "Min": 120, "Avg": 131, "Max": 140, "units": "count/min", "source": "Anna’s Apple Watch"}
             ],
             "route": [
               {"latitude": 52.52, "longitude": 13.405, "altitude": 34.1, "timestamp": "2026-11-26 17:00:05 +0100", "speed": 2.9},
               {"latitude": 52.521, "longitude": 13.406, "altitude": 34.5, "timestamp": "2026-11-26 17:00:10 +0100", "speed": 3.0}
             ]},
            {"name": "Walking", "start": "2026-11-26 12:00:00 +0100", "end": "2026-11-26 12:30:00 +0100"}
          ],
          "stateOfMind": [{"id": "a", "kind": "momentary"}],
          "ecg": []
        }}
        """

    static func read(_ text: String) throws -> HealthAutoExport.Payload {
        try HealthAutoExport.read(Array(text.utf8))
    }

    @Test("every metric form becomes samples in Heartwork's units, and what is not used is counted")
    func metrics() throws {
        let payload = try Self.read(Self.payload)
        let byKind = Dictionary(grouping: payload.samples, by: \.kind)
        // Heart rate: the entry's Avg at its instant; Min above Avg and a missing date left out.
        #expect(byKind[.heartRate]?.map(\.value) == [61.5, 63])
        #expect(byKind[.heartRate]?.first?.source == "Anna’s Apple Watch via Health Auto Export", "marked as come through the app")
        #expect(byKind[.heartRate]?.first?.utcOffsetSeconds == 3600)
        #expect(byKind[.heartRate]?.first?.start == AppleHealthReader.date("2026-11-26 08:00:00 +0100")?.0)
        #expect(payload.leftOut["heart_rate: Min, Avg and Max out of order"] == 1)
        #expect(payload.leftOut["heart_rate: an entry without a valid date (yyyy-MM-dd HH:mm:ss Z)"] == 1)
        #expect(byKind[.restingHeartRate]?.map(\.value) == [52])
        #expect(byKind[.walkingHeartRateAverage]?.map(\.value) == [97])
        #expect(byKind[.heartRateVariabilitySDNN]?.map(\.value) == [48.2])
        // Steps: hourly entries cover their hour (the smallest spacing), the last one too.
        let steps = try #require(byKind[.steps]).sorted { $0.start < $1.start }
        #expect(steps.map(\.value) == [812, 1504, 33])
        #expect(steps.map { $0.end.timeIntervalSince($0.start) } == [3600, 3600, 3600])
        // Pounds and inches to kilograms and metres.
        #expect(abs((byKind[.bodyMass]?.first?.value ?? 0) - 69.989) < 0.001)
        #expect(byKind[.bodyMass]?.first?.source == "Withings via Health Auto Export")
        #expect(abs((byKind[.height]?.first?.value ?? 0) - 1.6764) < 0.0001)
        #expect(byKind[.height]?.first?.source == HealthAutoExport.defaultSource)
        // What Heartwork does not read: counted, never an error.
        #expect(payload.entries["blood_pressure"] == 2)
        #expect(payload.leftOut["blood_pressure: Heartwork does not use this metric"] == 2)
        #expect(payload.leftOut["stateOfMind: Heartwork does not use these"] == 1)
        #expect(payload.leftOut["ecg: Heartwork does not use these"] == nil)
    }

    @Test("the aggregated night: in bed as sent, the stages laid end to end from sleepStart")
    func aggregatedSleep() throws {
        let sleep = try Self.read(Self.payload).samples.filter { $0.kind == .sleep }.sorted { $0.start < $1.start }
        let stages = sleep.map { HealthSample.SleepStage(rawValue: Int($0.value))! }
        #expect(stages == [.inBed, .core, .deep, .rem])
        #expect(sleep[0].end.timeIntervalSince(sleep[0].start) == 7 * 3600 + 55 * 60)
        let asleep = sleep.filter { HealthSample.SleepStage(rawValue: Int($0.value))!.isAsleep }.map { $0.end.timeIntervalSince($0.start) }
        #expect(asleep == [16_200.0, 4_500.0, 5_400.0])  // 4.5 h core, 1.25 h deep, 1.5 h REM
        #expect(sleep[1].start == AppleHealthReader.date("2026-11-25 23:30:00 +0100")!.0)
        #expect(sleep[3].end == sleep[2].end.addingTimeInterval(1.5 * 3600))
    }

    @Test("the unaggregated form: one stage per entry, as the Health app recorded it")
    func unaggregatedSleep() throws {
        let payload = try Self.read(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"startDate": "2026-11-25 23:10:00 +0100", "endDate": "2026-11-26 07:05:00 +0100", "qty": 7.9, "value": "In Bed", "source": "Anna’s iPhone"},
              {"startDate": "2026-11-25 23:30:00 +0100", "endDate": "2026-11-26 01:00:00 +0100", "qty": 1.5, "value": "Core", "source": "Anna’s Apple Watch"},
              {"startDate": "2026-11-26 01:00:00 +0100", "endDate": "2026-11-26 01:45:00 +0100", "qty": 0.75, "value": "Deep", "source": "Anna’s Apple Watch"},
              {"startDate": "2026-11-26 01:45:00 +0100", "endDate": "2026-11-26 01:50:00 +0100", "qty": 0.08, "value": "Awake", "source": "Anna’s Apple Watch"},
              {"startDate": "2026-11-26 01:50:00 +0100", "endDate": "2026-11-26 02:30:00 +0100", "qty": 0.67, "value": "REM", "source": "Anna’s Apple Watch"},
              {"startDate": "2026-11-26 02:30:00 +0100", "endDate": "2026-11-26 02:40:00 +0100", "qty": 0.17, "value": "Dozing", "source": "Anna’s Apple Watch"}
            ]}]}}
            """)
        let stages = payload.samples.sorted { $0.start < $1.start }.map { HealthSample.SleepStage(rawValue: Int($0.value))! }
        #expect(stages == [.inBed, .core, .deep, .awake, .rem])
        #expect(payload.samples.first { $0.value == 0 }?.source == "Anna’s iPhone via Health Auto Export")
        #expect(payload.leftOut["sleep_analysis: a stage Heartwork does not know (Dozing)"] == 1)
    }

    @Test("a version 2 workout with its heart rate and route, in miles and kilojoules; one without an id is left out")
    func workouts() throws {
        let payload = try Self.read(Self.payload)
        #expect(payload.workouts.count == 1)
        let run = try #require(payload.workouts.first)
        #expect(run.id == "550E8400-E29B-41D4-A716-446655440000")
        #expect(run.workout.activityType == "HKWorkoutActivityTypeRunning")
        #expect(run.workout.sport == .running)
        #expect(run.workout.end.timeIntervalSince(run.workout.start) == 1800)
        #expect(abs((run.workout.kilocalories ?? 0) - 350) < 0.01)
        #expect(abs((run.workout.distanceMeters ?? 0) - 4988.966) < 0.01)
        #expect(run.heartRate == [TimedHeartRate(timeSeconds: 0, beatsPerMinute: 104), TimedHeartRate(timeSeconds: 60, beatsPerMinute: 131)])
        #expect(run.track.map(\.timeSeconds) == [5, 10])
        #expect(run.track.first?.elevationMeters == 34.1)
        #expect(run.isIndoor == false)
        #expect(run.workout.device == nil && run.workout.source.isEmpty, "no device named: the same workout from an export is a duplicate")
        #expect(payload.leftOut["workouts: a workout without an id (export version 1? choose version 2 in the automation)"] == 1)
        #expect(payload.fieldsNotUsed["workouts.totalEnergy"] == 1)
        #expect(payload.fieldsNotUsed["workouts.intensity"] == 1)
    }

    @Test("entries dated before 2000 or more than a day ahead are left out; Today's freshness is never in the future")
    func dates() throws {
        let now = AppleHealthReader.date("2026-11-26 12:00:00 +0000")!.0
        let payload = try HealthAutoExport.read(
            Array(
                """
                {"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": [
                  {"date": "1970-01-01 00:00:00 +0000", "Avg": 60}, {"date": "9999-12-30 00:00:00 +0000", "Avg": 60},
                  {"date": "2026-11-26 11:00:00 +0000", "Avg": 61}]},
                  {"name": "step_count", "units": "count", "data": [{"qty": 50, "date": "2026-11-26 11:59:30 +0000"}]}],
                 "workouts": [{"id": "w", "name": "Running", "start": "2099-01-01 10:00:00 +0000", "end": "2099-01-01 11:00:00 +0000"}]}}
                """.utf8), now: now)
        #expect(payload.samples.filter { $0.kind == .heartRate }.map(\.value) == [61])
        #expect(payload.leftOut["heart_rate: dated before 2000 or more than a day ahead"] == 2)
        #expect(payload.leftOut["workouts: dated before 2000 or more than a day ahead"] == 1)
        #expect(payload.newest == now, "a step count's span ends after now; the data is as fresh as now, not later")
    }

    @Test("an aggregated night with stages and unstaged sleep keeps both, unless asleep is already their sum")
    func asleepBesideStages() throws {
        func night(asleep: Double, total: Double) throws -> [Double] {
            try Self.read(
                """
                {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [{"core": 3, "deep": 1, "rem": 1, "asleep": \(asleep),
                  "totalSleep": \(total), "sleepStart": "2026-11-25 23:00:00 +0000", "sleepEnd": "2026-11-26 07:00:00 +0000"}]}]}}
                """
            ).samples.map { $0.end.timeIntervalSince($0.start) / 3600 }
        }
        #expect(try night(asleep: 1.5, total: 6.5) == [3, 1, 1, 1.5])
        #expect(try night(asleep: 5, total: 5) == [3, 1, 1], "asleep is the stages' sum: not added twice")
    }

    /// Issue 41: a real 10-year export holds 822 nights the app wrote with every stage 0 (its
    /// shape: sleepStart, sleepEnd and inBedStart/inBedEnd the same instant); they are left out
    /// as "0 hours asleep", not as nights without sleepStart.
    @Test("a night of 0 hours is left out as such, a night without its start as that")
    func zeroHourNights() throws {
        let payload = try Self.read(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2016-03-02 00:00:00 +0100", "totalSleep": 0, "asleep": 0, "core": 0, "deep": 0, "rem": 0, "awake": 0, "inBed": 0,
               "sleepStart": "2016-03-01 23:41:00 +0100", "sleepEnd": "2016-03-01 23:41:00 +0100",
               "inBedStart": "2016-03-01 23:41:00 +0100", "inBedEnd": "2016-03-01 23:41:00 +0100", "source": "iPhone"},
              {"date": "2016-03-03 00:00:00 +0100", "totalSleep": 0, "asleep": 0, "core": 0, "deep": 0, "rem": 0,
               "sleepStart": "2016-03-02 23:10:00 +0100", "sleepEnd": "2016-03-02 23:10:00 +0100", "source": "iPhone"},
              {"date": "2016-03-04 00:00:00 +0100", "asleep": 6.5, "source": "iPhone"},
              {"date": "2016-03-05 00:00:00 +0100", "asleep": 7, "sleepStart": "2016-03-04 23:00:00 +0100",
               "sleepEnd": "2016-03-05 06:00:00 +0100", "source": "iPhone"}]}]}}
            """)
        #expect(payload.leftOut["sleep_analysis: a night of 0 hours asleep"] == 2)
        #expect(payload.leftOut["sleep_analysis: a night without sleepStart or inBedStart"] == 1)
        #expect(payload.samples.map { $0.end.timeIntervalSince($0.start) / 3600 } == [7], "the good night is kept")
    }

    @Test("members in any order: the entries wait for the metric's name")
    func dataBeforeName() throws {
        let payload = try Self.read(
            """
            {"data": {"metrics": [{"data": [{"qty": 120, "date": "2026-11-26 09:00:00 +0000"}, {"qty": 30, "date": "2026-11-26 09:01:00 +0000"}],
              "units": "count", "name": "step_count"}]}}
            """)
        #expect(payload.samples.map(\.value) == [120, 30])
        #expect(payload.samples.map { $0.end.timeIntervalSince($0.start) } == [60, 60])
    }

    @Test("units it does not know and impossible values are left out with why; other metrics' entries stay")
    func badEntries() throws {
        let payload = try Self.read(
            """
            {"data": {"metrics": [
              {"name": "weight_body_mass", "units": "furlongs", "data": [{"qty": 3, "date": "2026-11-26 09:00:00 +0000"}]},
              {"name": "heart_rate", "units": "count/min", "data": [{"Avg": 4000, "date": "2026-11-26 09:00:00 +0000"}, {"Avg": "fast", "date": "2026-11-26 09:00:00 +0000"}]},
              {"name": "resting_heart_rate", "units": "count/min", "data": [{"qty": 55, "date": "2026-11-26 00:00:00 +0000"}]}
            ]}}
            """)
        #expect(payload.samples.map(\.kind) == [.restingHeartRate])
        #expect(payload.leftOut["weight_body_mass: the unit \"furlongs\" is not one Heartwork knows"] == 1)
        #expect(payload.leftOut["heart_rate: an impossible value"] == 1)
        #expect(payload.leftOut["heart_rate: an entry without a number"] == 1)
    }

    @Test("a body that is not JSON, or not the app's shape, is refused with what was wrong")
    func refused() {
        #expect(throws: JSONFieldError.self) { try Self.read("{\"data\": {\"metrics\": [") }
        #expect(throws: JSONFieldError.self) { try Self.read("[1, 2]") }
        #expect(throws: JSONFieldError.self) { try Self.read("{\"metrics\": []}") }
        #expect(throws: JSONFieldError.self) { try Self.read("{\"data\": {\"metrics\": {\"name\": \"heart_rate\"}}}") }
        // Entries before the name are passed over, then read; a cut or broken array is still an error.
        #expect(throws: JSONFieldError.self) { try Self.read("{\"data\": {\"metrics\": [{\"data\": [{\"qty\": 1, \"date\": \"x\"}") }
        #expect(throws: JSONFieldError.self) { try Self.read("{\"data\": {\"metrics\": [{\"data\": [{\"qty\": 1,, }], \"name\": \"step_count\"}]}}") }
        #expect(throws: JSONFieldError.self) { try Self.read("{\"data\": {\"metrics\": [{\"data\": \"unterminated}]}}") }
    }
}
