import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel

/// A team session's review page (FitLabTeam F9–F10): the team side by side, then each
/// player's heart rate coloured by zone, time in zones, TRIMP, calories and HRV over the
/// session and in 5-minute windows.
struct TeamSessionPage {
    let review: TeamSessionReview
    let team: TeamRecord
    let zone: TimeZone
    /// The session's players who have a photo now.
    var photos: Set<String> = []

    private func photoURL(_ player: TeamSessionPlayer) -> String? {
        photos.contains(player.playerID) ? "/api/players/\(player.playerID)/photo" : nil
    }

    var title: String { "\(team.name) · \(Formatting.dateTime(review.session.startsAt, zone: zone))" }

    func model() -> TeamSessionReviewPage {
        let session = review.session
        let now = Date()
        let seconds = max(0, Int(review.end.timeIntervalSince(session.startsAt).rounded()))
        let teamRows = review.players.enumerated().map { index, entry -> TeamSessionReviewPage.TeamRow in
            let analysis = entry.analysis
            return .init(
                swatch:
                    "<svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" rx=\"2\" fill=\"\(Self.playerColors[index % Self.playerColors.count])\"/></svg>",
                anchor: "player-\(entry.player.playerID)", name: entry.player.name, number: entry.player.number ?? "",
                photoURL: photoURL(entry.player), initials: PlayerName.initials(entry.player.name),
                average: Formatting.number(analysis.averageHeartRate, unit: "bpm"),
                maximum: Formatting.number(analysis.maximumHeartRate.map(Double.init), unit: "bpm"),
                trimp: Formatting.number(analysis.trimp, decimals: 1), calories: Formatting.number(analysis.kilocalories, unit: "kcal"),
                rmssd: Formatting.number(analysis.hrv?.indices.timeDomain?.rmssd, decimals: 1, unit: "ms"),
                zoneBar: zoneBar(analysis))
        }
        return TeamSessionReviewPage(
            id: session.id, teamID: team.id, teamName: team.name, when: Formatting.dateTime(session.startsAt, zone: zone),
            contextSummary: session.context.summary ?? "Not said", context: SessionContextChoices(session.context),
            correctionName: Self.correctionName(session.correction), fitlab: session.correction == .fitlab,
            duration: Formatting.duration(seconds), playerCount: review.players.count,
            saved: session.state == .saved, open: session.state != .saved, recording: session.isRecording(now: now),
            reviewed: session.reviewed, exported: session.exported,
            teamRows: teamRows, teamChart: teamChart(),
            players: review.players.map(player),
            legend: ReserveZone.allCases.map { .init(name: $0.label, color: Palette.reserveZones[$0.rawValue]) })
    }

    /// The correction in words, as the page says it.
    static func correctionName(_ method: ArtifactCorrectionMethod) -> String {
        switch method {
        case .kubios: "Kubios (Lipponen & Tarvainen 2019)"
        case .fitlab: "FitLab (the seed's own corrector)"
        case .none: "none"
        }
    }

    /// Time in zones as one stacked bar (a small SVG: the content policy allows no inline
    /// styles), readable at a glance for the whole team; its label says it in words.
    private func zoneBar(_ analysis: PlayerSessionAnalysis) -> String {
        guard let zones = analysis.secondsInZones, zones.reduce(0, +) > 0 else { return "–" }
        let total = zones.reduce(0, +)
        let width = 192.0
        var x = 0.0
        var rects = ""
        var words = [String]()
        for (index, value) in zones.enumerated() where value > 0 {
            let share = value / total
            let name = ReserveZone.allCases[index].label
            rects +=
                "<rect x=\"\(Formatting.number(x, decimals: 1))\" y=\"0\" width=\"\(Formatting.number(share * width, decimals: 1))\" height=\"16\" fill=\"\(Palette.reserveZones[index])\"/>"
            words.append("\(name) \(Int((100 * share).rounded())) %")
            x += share * width
        }
        return
            "<svg class=\"zone-bar\" width=\"192\" height=\"16\" viewBox=\"0 0 192 16\" role=\"img\" aria-label=\"Time in zones: \(words.joined(separator: ", "))\">\(rects)</svg>"
    }

    /// A player's colour on the team chart and next to their name (FitLabTeam draws each
    /// player's graph in the colour around their photo).
    static let playerColors = ["#0b6bcb", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#1f2933", "#a33d00", "#6a3d9a", "#b15928", "#33a02c", "#7f7f7f"]

    /// Every player's heart rate on one chart, one colour each, as 30-second means so a squad's
    /// lines stay apart; the key is the colour beside each name in the table.
    private func teamChart() -> String? {
        guard review.players.contains(where: { $0.analysis.readingCount > 0 }) else { return nil }
        let colors = Self.playerColors
        var layers = [ChartLayer]()
        for (index, entry) in review.players.enumerated() {
            let series = entry.analysis.heartRate
            let points = stride(from: 0, to: series.count, by: 30).compactMap { start -> ChartPoint? in
                let slice = series[start..<min(series.count, start + 30)].compactMap { $0 }
                guard !slice.isEmpty else { return nil }
                return ChartPoint(x: Double(start + 15) / 60, y: Double(slice.reduce(0, +)) / Double(slice.count))
            }
            layers.append(.line(points, stroke: colors[index % colors.count], width: 2))
        }
        return WorkoutCharts.Chart { width in
            var chart = XYChart(
                title: width < 500 ? "Whole team (30-s means)" : "Heart rate, whole team (30-second means)", xLabel: "Time (min)",
                yLabel: "Heart rate (bpm)", layers: layers)
            chart.xTickCount = WorkoutCharts.xTicks(width)
            var svg = SVGDocument(width: width, height: 320, title: "Heart rate of every player in the session", id: "team-hr-\(Int(width))")
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: 320), on: &svg)
            return WorkoutCharts.Drawing(svg: svg.rendered)
        }.svg
    }

    private func player(_ entry: TeamSessionReview.Player) -> TeamSessionReviewPage.Player {
        let analysis = entry.analysis
        let name = entry.player.name
        var model = TeamSessionReviewPage.Player(
            anchor: "player-\(entry.player.playerID)", name: name, number: entry.player.number ?? "",
            photoURL: photoURL(entry.player), initials: PlayerName.initials(name),
            readings: analysis.readingCount, heard: Formatting.duration(Int(analysis.coveredSeconds.rounded())),
            average: Formatting.number(analysis.averageHeartRate, unit: "bpm"),
            maximum: Formatting.number(analysis.maximumHeartRate.map(Double.init), unit: "bpm"),
            trimp: Formatting.number(analysis.trimp, decimals: 1), calories: Formatting.number(analysis.kilocalories, unit: "kcal"),
            notes: analysis.notes, hasNotes: !analysis.notes.isEmpty, hasReadings: analysis.readingCount > 0)
        if analysis.readingCount > 0 {
            let chart = WorkoutCharts.heartRate(analysis.heartRate, profile: analysis.zoneProfile, name: name, id: "hr-\(entry.player.playerID)", height: 260)
            model.chart = chart.svg
            if let zones = analysis.secondsInZones {
                model.zonesChart = WorkoutCharts.timeInZones(zones.map { Int($0.rounded()) }, name: name, id: "zones-\(entry.player.playerID)").svg
            }
        }
        if let hrv = analysis.hrv, let time = hrv.indices.timeDomain {
            let seed = FitLabTimeDomain(rrMilliseconds: hrv.correction.corrected)
            model.hrv = .init(
                beats: hrv.indices.beatCount, rmssd: Formatting.number(time.rmssd, decimals: 1, unit: "ms"),
                sdnn: Formatting.number(time.sdnn, decimals: 1, unit: "ms"), sdsd: Formatting.number(time.sdsd, decimals: 1, unit: "ms"),
                pnn50: Formatting.number(time.pnn50, decimals: 1, unit: "%"), meanNN: Formatting.number(time.meanNN, unit: "ms"),
                corrected: Formatting.number(hrv.correction.correctedPercent, decimals: 1, unit: "%"), reliable: hrv.correction.isReliable,
                method: Self.correctionName(hrv.correction.method),
                seedSDNN: Formatting.number(seed?.sdnn, decimals: 1, unit: "ms"), seedSDSD: Formatting.number(seed?.sdsd, decimals: 1, unit: "ms"),
                seedRMSSD: Formatting.number(seed?.rmssd, decimals: 1, unit: "ms"), seedPNN50: Formatting.number(seed?.pnn50Fraction, decimals: 3))
            model.windows = analysis.hrvWindows.map { window in
                let time = window.indices.timeDomain
                return .init(
                    from: Formatting.duration(Int(window.startSeconds)), beats: window.indices.beatCount,
                    rmssd: Formatting.number(time?.rmssd, decimals: 1, unit: "ms"), sdnn: Formatting.number(time?.sdnn, decimals: 1, unit: "ms"),
                    meanHR: Formatting.number(time?.meanHR, unit: "bpm"))
            }
            model.hasWindows = !analysis.hrvWindows.isEmpty
        }
        return model
    }
}
