import Foundation

/// A generated Apple Health `export.xml` with known answers, in the Health app's shape, for
/// the import and daily-metrics tests. Each day (UTC, "+0000"):
/// - heart rate from the watch every 5 minutes, 55 bpm from 00:00 to 06:00 and 70 after, one
///   reading of 190 at 12:00 (the maximum), and every 5 s at 150 during a run 17:00–17:45;
/// - resting heart rate 52, HRV (SDNN) 45 ms;
/// - steps 3 × 1000 from the watch, the same intervals from the phone (the watch wins: 3000);
/// - the night before: in bed 22:30–06:00 (7.5 h), asleep (core) 23:00–05:30 (6.5 h), so the
///   estimated quality is round(6.5/7.5 × 10) = 9;
/// - the run as a Workout (5 km, 400 kcal).
public enum HealthExportFixture {
    public static let watch = "&lt;&lt;HKDevice: 0x1, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.0&gt;"

    /// `days` as yyyy-mm-dd.
    /// - Parameter routes: the runs name their route, `/workout-routes/route_<day>.gpx` (see `routeGPX`).
    public static func xml(days: [String], heartRateEverySeconds: Int = 300, routes: Bool = false) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-25 09:00:00 +0000"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let dayFormat = DateFormatter()
        dayFormat.locale = Locale(identifier: "en_US_POSIX")
        dayFormat.timeZone = TimeZone(identifier: "UTC")
        dayFormat.dateFormat = "yyyy-MM-dd"
        func stamp(_ date: Date) -> String { formatter.string(from: date) + " +0000" }
        func record(_ type: String, _ source: String, device: Bool, unit: String?, start: Date, end: Date, value: String) -> String {
            let unitText = unit.map { " unit=\"\($0)\"" } ?? ""
            let deviceText = device ? " device=\"\(watch)\"" : ""
            return
                " <Record type=\"\(type)\" sourceName=\"Test Watch\(source)\"\(deviceText)\(unitText) creationDate=\"\(stamp(end))\" startDate=\"\(stamp(start))\" endDate=\"\(stamp(end))\" value=\"\(value)\"/>\n"
        }
        for text in days {
            guard let day = dayFormat.date(from: text) else { continue }
            // The night before.
            out += record(
                "HKCategoryTypeIdentifierSleepAnalysis", "", device: true, unit: nil, start: day.addingTimeInterval(-1.5 * 3600),
                end: day.addingTimeInterval(6 * 3600), value: "HKCategoryValueSleepAnalysisInBed")
            out += record(
                "HKCategoryTypeIdentifierSleepAnalysis", "", device: true, unit: nil, start: day.addingTimeInterval(-3600),
                end: day.addingTimeInterval(5.5 * 3600), value: "HKCategoryValueSleepAnalysisAsleepCore")
            var second = 0
            while second < 86_400 {
                let value = second == 12 * 3600 ? 190 : second < 6 * 3600 ? 55 : 70
                if !(second >= 17 * 3600 && second < 17 * 3600 + 45 * 60) {
                    let at = day.addingTimeInterval(Double(second))
                    out += record("HKQuantityTypeIdentifierHeartRate", "", device: true, unit: "count/min", start: at, end: at, value: "\(value)")
                }
                second += heartRateEverySeconds
            }
            for s in stride(from: 17 * 3600, to: 17 * 3600 + 45 * 60, by: 5) {
                let at = day.addingTimeInterval(Double(s))
                out += record("HKQuantityTypeIdentifierHeartRate", "", device: true, unit: "count/min", start: at, end: at, value: "150")
            }
            out += record("HKQuantityTypeIdentifierRestingHeartRate", "", device: true, unit: "count/min", start: day, end: day.addingTimeInterval(23 * 3600), value: "52")
            out += record(
                "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "", device: true, unit: "ms", start: day.addingTimeInterval(7 * 3600),
                end: day.addingTimeInterval(7 * 3600 + 60), value: "45")
            for hour in [9, 13, 19] {
                let start = day.addingTimeInterval(Double(hour) * 3600)
                let end = start.addingTimeInterval(600)
                out += record("HKQuantityTypeIdentifierStepCount", "", device: true, unit: "count", start: start, end: end, value: "1000")
                out += record("HKQuantityTypeIdentifierStepCount", "’s iPhone", device: false, unit: "count", start: start, end: end, value: "1000")
            }
            let runStart = day.addingTimeInterval(17 * 3600)
            let runEnd = runStart.addingTimeInterval(45 * 60)
            out += """
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="45" durationUnit="min" totalDistance="5" totalDistanceUnit="km" totalEnergyBurned="400" totalEnergyBurnedUnit="kcal" sourceName="Test Watch" device="\(watch)" creationDate="\(stamp(runEnd))" startDate="\(stamp(runStart))" endDate="\(stamp(runEnd))">
                  <MetadataEntry key="HKIndoorWorkout" value="0"/>\(routes ? "\n  <WorkoutRoute sourceName=\"Test Watch\"><FileReference path=\"/workout-routes/route_\(text).gpx\"/></WorkoutRoute>" : "")
                 </Workout>

                """
        }
        return out + "</HealthData>\n"
    }

    /// The run's route on `day` as the Health app writes it: GPX 1.1, a point every 10 s
    /// from 17:00 for 45 minutes, heading north.
    public static func routeGPX(day: String) -> String {
        var points = ""
        for step in 0..<270 {
            let minutes = step * 10 / 60
            let seconds = step * 10 % 60
            let time = "\(day)T17:\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds)Z"
            points += "<trkpt lon=\"16.3700\" lat=\"\(String(format: "%.6f", 48.2 + Double(step) * 0.00003))\"><ele>180.0</ele><time>\(time)</time></trkpt>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>Route</name><trkseg>
            \(points)</trkseg></trk>
            </gpx>
            """
    }
}
