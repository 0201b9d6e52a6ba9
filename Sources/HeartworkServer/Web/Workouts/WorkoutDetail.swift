import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkFormats
import HeartworkModel

/// Everything the workout page shows: the summary, the zones in bpm, the charts the data
/// allows (heart rate when it was recorded; speed, elevation and route with a track; HRV with RR
/// intervals), and the same data as tables for those who do not see the charts.
struct WorkoutDetail {
    let workout: VisibleWorkout
    let streams: WorkoutStreams
    let viewer: UserRecord
    let ownerName: String
    let mapTiles: MapTiles?

    /// Enough beats for HRV indices worth showing (two minutes at rest).
    static let minimumBeatsForHRV = 120

    var record: WorkoutRecord { workout.record }
    var zone: TimeZone { TimeZones.zone(viewer.timeZone) }
    var name: String { "\(record.sport.rawValue) on \(Formatting.day(record.startedAt, zone: zone))" }
    var title: String { "\(record.sport.rawValue.capitalized) on \(Formatting.day(record.startedAt, zone: zone))" }

    func model() -> WorkoutPage {
        let metrics = record.metrics
        let units = viewer.units

        // Summary tiles: only what this workout has.
        var tiles: [WorkoutPage.Tile] = [.init(label: "Duration", value: Formatting.duration(metrics.durationSeconds))]
        if let value = metrics.averageHeartRate { tiles.append(.init(label: "Average HR", value: Formatting.number(value, unit: "bpm"))) }
        if let value = metrics.maximumHeartRate { tiles.append(.init(label: "Maximum HR", value: Formatting.number(value, unit: "bpm"))) }
        if let value = metrics.kilocalories { tiles.append(.init(label: "Energy", value: Formatting.number(value, unit: "kcal"))) }
        if let meters = metrics.distanceMeters, meters > 0 {
            tiles.append(.init(label: "Distance", value: Formatting.distance(meters, units: units)))
            if metrics.durationSeconds > 0 {
                let speed = meters / Double(metrics.durationSeconds)
                tiles.append(
                    record.sport == .running
                        ? .init(label: "Average pace", value: WorkoutCharts.pace(speed, units: units))
                        : .init(
                            label: "Average speed",
                            value: Formatting.number(speed * (units == .imperial ? 3600 / Length.metersPerMile : 3.6), decimals: 1, unit: units == .imperial ? "mph" : "km/h")))
            }
        }
        let samples = TrackSample.along(streams.track)
        let climb = Self.climb(samples)
        if climb > 0 { tiles.append(.init(label: "Climb", value: Formatting.elevation(climb, units: units))) }

        // The page's headings name the charts: no second title inside them.
        let heartRate = metrics.hasHeartRate ? WorkoutCharts.heartRate(record, streams: streams, name: name, titled: false).svg : ""
        var model = WorkoutPage(
            base: WebWorkoutPages.row(record, user: viewer), mine: workout.viewerIsOwner, hasTrack: record.trackCount > 0,
            ownerName: ownerName, ownerID: record.userID, tiles: tiles,
            heartRateChart: heartRate,
            zoneChart: metrics.secondsInZones.map { WorkoutCharts.timeInZones($0, name: name, titled: false).svg } ?? "",
            // Its own name and device, and what was left out on the way in.
            ownTitle: record.title, device: record.device.map(Self.deviceName),
            notes: record.notes.map { note in
                .init(text: note.message + (note.line.map { " (line \($0))" } ?? note.byte.map { " (byte \($0))" } ?? ""))
            },
            hasNotes: !record.notes.isEmpty && workout.viewerIsOwner,
            minutes: minuteTable(samples: samples), hasTrackColumns: !samples.isEmpty,
            rrCount: 0, hasRR: false)

        // Zones, with their bounds in bpm for this workout's snapshot.
        let snapshot = record.profile
        if let profile = snapshot.zoneProfile {
            let thresholds = profile.reserveZoneThresholds
            model.zoneBounds = ReserveZone.allCases.dropFirst().enumerated().map { index, zone in
                .init(
                    name: zone.label, class: "zone-\(zone.identifier)",
                    from: String(format: "%.0f", thresholds[index]), to: index + 1 < 4 ? String(format: "%.0f", thresholds[index + 1]) : "maximum")
            }
            model.hasZones = true
            model.zoneBasis =
                "resting \(Formatting.number(snapshot.restingHeartRate, unit: "bpm")), maximum \(Formatting.number(snapshot.maximumHeartRate, unit: "bpm"))"
                + (workout.viewerIsOwner ? snapshot.ageYears.map { ", age \($0)" } ?? "" : "")
        }
        if !record.indoor, streams.track.count >= 2 {
            model.speedChart = WorkoutCharts.speed(samples, sport: record.sport, units: units, name: name, titled: false)?.svg
            model.elevationChart = WorkoutCharts.elevation(samples, units: units, name: name, titled: false)?.svg
            model.routeChart = WorkoutCharts.route(streams.track, units: units, name: name, tiles: mapTiles, titled: false).svg
        }
        addHRV(to: &model)
        model.hasHeartRate = metrics.hasHeartRate
        return model
    }

    /// Height gained, counting rises of more than 2 m between turns (so GPS noise does not add up).
    static func climb(_ samples: [TrackSample]) -> Double {
        var gained = 0.0
        var low: Double?
        for sample in samples {
            guard let elevation = sample.elevation else { continue }
            guard let base = low else {
                low = elevation
                continue
            }
            if elevation < base {
                low = elevation
            } else if elevation - base > 2 {
                gained += elevation - base
                low = elevation
            }
        }
        return gained
    }

    /// Minute by minute: average and highest heart rate, and distance and speed with a track.
    private func minuteTable(samples: [TrackSample]) -> [WorkoutPage.Minute] {
        let seconds = streams.heartRate.count
        var rows = [WorkoutPage.Minute]()
        var sampleIndex = 0
        for minute in 0..<((seconds + 59) / 60) {
            let slice = streams.heartRate[(minute * 60)..<min(seconds, minute * 60 + 60)].compactMap { $0 }
            var row = WorkoutPage.Minute(
                minute: String(minute + 1),
                average: slice.isEmpty ? "–" : String(Int((Double(slice.reduce(0, +)) / Double(slice.count)).rounded())),
                maximum: slice.max().map(String.init) ?? "–")
            if !samples.isEmpty {
                while sampleIndex + 1 < samples.count, samples[sampleIndex + 1].seconds <= Double(minute * 60 + 60) { sampleIndex += 1 }
                row.distance = Formatting.distance(samples[sampleIndex].distance, units: viewer.units)
                row.speed =
                    samples[sampleIndex].speed.map {
                        Formatting.number($0 * (viewer.units == .imperial ? 3600 / Length.metersPerMile : 3.6), decimals: 1)
                    } ?? "–"
            }
            rows.append(row)
        }
        return rows
    }

    /// HRV of the workout's beat-to-beat intervals (Kubios artifact correction, as `heartwork hrv`).
    private func addHRV(to model: inout WorkoutPage) {
        let rr = streams.rrIntervalsMilliseconds
        model.rrCount = rr.count
        model.hasRR = !rr.isEmpty
        guard rr.count >= Self.minimumBeatsForHRV, let result = try? HRVAnalysis.analyze(rr) else { return }
        let indices = result.indices
        var rows = [WorkoutPage.HRVRow]()
        func add(_ name: String, _ value: Double?, decimals: Int, unit: String = "") {
            guard let value, value.isFinite else { return }
            rows.append(.init(name: name, value: Formatting.number(value, decimals: decimals, unit: unit)))
        }
        if let time = indices.timeDomain {
            add("Mean RR", time.meanNN, decimals: 0, unit: "ms")
            add("SDNN", time.sdnn, decimals: 1, unit: "ms")
            add("RMSSD", time.rmssd, decimals: 1, unit: "ms")
            add("pNN50", time.pnn50, decimals: 1, unit: "%")
        }
        if let frequency = indices.frequencyDomain {
            add("LF power", frequency.lfPower, decimals: 0, unit: "ms²")
            add("HF power", frequency.hfPower, decimals: 0, unit: "ms²")
            add("LF/HF", frequency.lfHfRatio, decimals: 2)
        }
        if let nonlinear = indices.nonlinear {
            add("SD1", nonlinear.sd1, decimals: 1, unit: "ms")
            add("SD2", nonlinear.sd2, decimals: 1, unit: "ms")
            add("DFA α1", nonlinear.dfaAlpha1, decimals: 2)
        }
        model.hasRR = true
        model.hasHRV = true
        model.hrvRows = rows
        model.hrvCorrected = Formatting.number(result.correction.correctedPercent, decimals: 1, unit: "%")
        model.hrvReliable = result.correction.isReliable
        model.poincareChart = WorkoutCharts.poincare(result, name: name).svg
    }

    /// A device as a person reads it: a FIT file's maker and product by the FIT profile's
    /// names ("Garmin Edge 1030", `FITProfileNames`), anything else as the file gave it.
    static func deviceName(_ device: String) -> String {
        guard device.hasPrefix("fit:") else { return device }
        let parts = device.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // The makers people know by a shorter name than the profile's ("Wahoo Fitness").
        let known = [
            1: "Garmin", 23: "Suunto", 32: "Wahoo", 69: "Stages", 70: "Sigma", 89: "Tacx", 123: "Polar", 260: "Zwift", 263: "Hammerhead",
            265: "Strava", 289: "Hammerhead", 294: "COROS", 255: "a development build",
        ]
        guard let id = parts.first.flatMap({ Int($0) }), let maker = known[id] ?? FITProfileNames.manufacturers[id] else { return "a FIT device" }
        guard parts.count > 1, parts[1] != "-", let product = Int(parts[1]) else { return maker }
        if [1, 13, 15].contains(id), let name = FITProfileNames.garminProducts[product] {
            return id == 1 ? "Garmin \(name)" : "\(maker) \(name)"
        }
        return "\(maker) (product \(product))"
    }
}
