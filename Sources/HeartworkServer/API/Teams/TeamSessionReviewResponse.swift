import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// A team session's review: each player's heart rate, time in zones, TRIMP, calories and HRV.
/// The JSON export is this with every RR interval added.
struct TeamSessionReviewResponse: ResponseEncodable {
    struct Zones: Encodable {
        let none: Double, low: Double, moderate: Double, high: Double, redLine: Double
    }

    struct HRV: Encodable {
        let beats: Int
        let durationSeconds: Double
        let correction: String
        let correctedPercent: Double
        let reliable: Bool
        let meanNN: Double?
        let sdnn: Double?
        let rmssd: Double?
        let sdsd: Double?
        let pnn50: Double?
        let meanHR: Double?
        let lfHfRatio: Double?
        /// The same series by the seed's conventions (FitLabTeam's C++ class): SDNN and SDSD ÷ N,
        /// pNN50 as a fraction of N.
        let seedConventions: SeedConventions?
    }

    struct SeedConventions: Encodable {
        let sdnn: Double
        let rmssd: Double
        let sdsd: Double
        let pnn50Fraction: Double
    }

    struct Window: Encodable {
        let startSeconds: Double
        let beats: Int
        let rmssd: Double?
        let sdnn: Double?
        let pnn50: Double?
        let meanHR: Double?
    }

    struct Player: Encodable {
        let playerID: String
        let name: String
        let number: String?
        let sensorID: String
        let readingCount: Int
        let coveredSeconds: Double
        let averageHeartRate: Double?
        let minimumHeartRate: Int?
        let maximumHeartRate: Int?
        let restingHeartRateUsed: Double?
        let maximumHeartRateUsed: Double?
        /// Karvonen thresholds (bpm) of the low, moderate, high and red-line zones.
        let zoneThresholds: [Double]?
        let secondsInZones: Zones?
        let trimp: Double?
        let kilocalories: Double?
        let hrv: HRV?
        let hrvWindows: [Window]
        /// Per second from the start; null where nothing was heard.
        let heartRate: [Int?]
        let rrIntervals: [Double]?
        let notes: [String]

        init(_ entry: TeamSessionReview.Player, includesRR: Bool) {
            let analysis = entry.analysis
            playerID = entry.player.playerID
            name = entry.player.name
            number = entry.player.number
            sensorID = entry.player.sensorID
            readingCount = analysis.readingCount
            coveredSeconds = Self.rounded(analysis.coveredSeconds, 3)
            averageHeartRate = analysis.averageHeartRate.map { Self.rounded($0, 1) }
            minimumHeartRate = analysis.minimumHeartRate
            maximumHeartRate = analysis.maximumHeartRate
            restingHeartRateUsed = analysis.zoneProfile?.restingHeartRate
            maximumHeartRateUsed = analysis.zoneProfile?.maximumHeartRate ?? entry.player.physiology.effectiveMaximumHeartRate
            zoneThresholds = analysis.zoneProfile.map { $0.reserveZoneThresholds.dropLast().map { Self.rounded($0, 1) } }
            secondsInZones = analysis.secondsInZones.map { zones in
                Zones(
                    none: Self.rounded(zones[0], 1), low: Self.rounded(zones[1], 1), moderate: Self.rounded(zones[2], 1),
                    high: Self.rounded(zones[3], 1), redLine: Self.rounded(zones[4], 1))
            }
            trimp = analysis.trimp.map { Self.rounded($0, 2) }
            kilocalories = analysis.kilocalories.map { Self.rounded($0, 1) }
            hrv = analysis.hrv.map { result in
                let time = result.indices.timeDomain
                return HRV(
                    beats: result.indices.beatCount, durationSeconds: Self.rounded(result.indices.durationSeconds, 1),
                    correction: result.correction.method.rawValue, correctedPercent: Self.rounded(result.correction.correctedPercent, 2),
                    reliable: result.correction.isReliable, meanNN: time.map { Self.rounded($0.meanNN, 2) }, sdnn: time.map { Self.rounded($0.sdnn, 2) },
                    rmssd: time.map { Self.rounded($0.rmssd, 2) }, sdsd: time.map { Self.rounded($0.sdsd, 2) }, pnn50: time.map { Self.rounded($0.pnn50, 2) },
                    meanHR: time.map { Self.rounded($0.meanHR, 1) },
                    lfHfRatio: result.indices.frequencyDomain?.lfHfRatio.flatMap { $0.isFinite ? Self.rounded($0, 3) : nil },
                    seedConventions: FitLabTimeDomain(rrMilliseconds: result.correction.corrected).map { seed in
                        SeedConventions(
                            sdnn: Self.rounded(seed.sdnn, 2), rmssd: Self.rounded(seed.rmssd, 2), sdsd: Self.rounded(seed.sdsd, 2),
                            pnn50Fraction: Self.rounded(seed.pnn50Fraction, 4))
                    })
            }
            hrvWindows = analysis.hrvWindows.map { window in
                let time = window.indices.timeDomain
                return Window(
                    startSeconds: window.startSeconds, beats: window.indices.beatCount, rmssd: time.map { Self.rounded($0.rmssd, 2) },
                    sdnn: time.map { Self.rounded($0.sdnn, 2) }, pnn50: time.map { Self.rounded($0.pnn50, 2) }, meanHR: time.map { Self.rounded($0.meanHR, 1) })
            }
            heartRate = analysis.heartRate
            rrIntervals = includesRR ? analysis.rrIntervals.map { Self.rounded($0, 3) } : nil
            notes = analysis.notes
        }

        static func rounded(_ value: Double, _ places: Int) -> Double {
            guard value.isFinite else { return 0 }
            let scale = pow(10, Double(places))
            return (value * scale).rounded() / scale
        }
    }

    let session: TeamSessionResponse
    let team: String
    let analysedUntil: Date
    let players: [Player]

    init(_ review: TeamSessionReview, teamName: String, includesRR: Bool = false) {
        session = TeamSessionResponse(review.session)
        team = teamName
        analysedUntil = review.end
        players = review.players.map { Player($0, includesRR: includesRR) }
    }
}

/// The CSV export: one row per player per second (RFC 4180; text fields quoted where needed),
/// each row ending with the session's context (FitLabTeam F8: the seed's labels, empty when
/// unset), so that rows of several sessions pasted together stay apart.
enum TeamSessionCSV {
    static let header = "player,number,sensor,second,time,bpm,zone,context_time,context_moment,context_situation,context_state"

    static func csv(_ review: TeamSessionReview) -> String {
        var lines = [header]
        let start = review.session.startsAt
        let context = review.session.context
        let contextFields = [context.time?.rawValue, context.moment?.rawValue, context.situation?.rawValue, context.state?.rawValue]
            .map { field($0 ?? "") }
        for entry in review.players {
            let profile = entry.analysis.zoneProfile
            for (second, bpm) in entry.analysis.heartRate.enumerated() {
                guard let bpm else { continue }
                let time = RFC3339Time.string(start.addingTimeInterval(TimeInterval(second)))
                let zone = profile?.reserveZone(beatsPerMinute: Double(bpm)).identifier ?? ""
                lines.append(
                    ([field(entry.player.name), field(entry.player.number ?? ""), field(entry.player.sensorID), "\(second)", time, "\(bpm)", zone]
                        + contextFields).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Quoted when it holds a comma, quote or line break; a leading =, +, - or @ is
    /// prefixed with ' so a spreadsheet never runs it as a formula.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

enum RFC3339Time {
    static func string(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
