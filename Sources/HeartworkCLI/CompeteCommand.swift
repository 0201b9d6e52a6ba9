import ArgumentParser
import HeartworkCore
import HeartworkFormats

struct CompeteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compete",
        abstract: "Score a heart-rate-zone challenge between two recordings.",
        discussion: """
            Each file is CSV with rows `second,bpm` (an optional `second,bpm` header, blank \
            lines and # comments are allowed). Each side is classified against its own zones; \
            a zone switch counts after 15 consecutive seconds; every second in which one side's \
            confirmed zone is higher scores a point for that side. Gaps hold the last value for \
            up to 5 s, then count as zone none. The challenge lasts as long as the longer file; \
            with --ghost, side B is a recorded workout and the challenge lasts exactly as long \
            as its recording (a longer side A is cut), as a ghost race on the server does.

            Example:
              heartwork compete me.csv friend.csv --a-age 24 --a-resting-hr 65 --b-age 31 --b-resting-hr 58
              heartwork compete me.csv ghost.csv --ghost --a-age 24 --a-resting-hr 65 --b-age 25 --b-resting-hr 65 --events
            """
    )

    @Argument(help: "Side A's recording (CSV `second,bpm`).")
    var fileA: String

    @Argument(help: "Side B's recording (CSV `second,bpm`).")
    var fileB: String

    @Option(name: .customLong("a-age"), help: "Side A's age in years.")
    var ageA: Double?

    @Option(name: .customLong("a-resting-hr"), help: "Side A's resting heart rate in bpm.")
    var restingA: Double

    @Option(name: .customLong("a-max-hr"), help: "Side A's measured maximum heart rate in bpm.")
    var maxA: Double?

    @Option(name: .customLong("b-age"), help: "Side B's age in years (for a ghost: at the time of recording).")
    var ageB: Double?

    @Option(name: .customLong("b-resting-hr"), help: "Side B's resting heart rate in bpm.")
    var restingB: Double

    @Option(name: .customLong("b-max-hr"), help: "Side B's measured maximum heart rate in bpm.")
    var maxB: Double?

    @Option(name: .customLong("max-hr-formula"), help: "HRmax formula for sides without --X-max-hr: gellish, fox or tanaka.")
    var formula: MaxHeartRateFormulaArgument?

    @Flag(help: "Side B is a recorded ghost: the challenge lasts exactly as long as its recording.")
    var ghost = false

    @Flag(help: "List every confirmed zone change with its announcement.")
    var events = false

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        let profileA = try zoneProfile(
            ageYears: ageA, restingHeartRate: restingA,
            formula: maxA == nil ? formula : nil, measuredMaximum: maxA, optionPrefix: "a-"
        ).profile
        let profileB = try zoneProfile(
            ageYears: ageB, restingHeartRate: restingB,
            formula: maxB == nil ? formula : nil, measuredMaximum: maxB, optionPrefix: "b-"
        ).profile
        let seriesA = try series(from: fileA)
        let seriesB = try series(from: fileB)
        let result = CompetitionEngine.evaluate(
            a: seriesA.beatsPerMinute, b: seriesB.beatsPerMinute, profileA: profileA, profileB: profileB,
            durationSeconds: ghost ? seriesB.durationSeconds : nil)
        let report = CompetitionReport(result: result, includeEvents: events)
        switch format {
        case .json: return try JSONOutput.render(report)
        case .table: return report.table
        }
    }

    private func series(from path: String) throws -> HeartRateSeries {
        do {
            return try HeartRateSeries.resampling(HeartRateCSV.read(path: path), originSeconds: 0)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}

/// What `heartwork compete` prints.
struct CompetitionReport: Encodable {
    struct Side: Encodable {
        let score: Int
        let timeInZoneSeconds: [String: Int]
    }

    struct Event: Encodable {
        let second: Int
        let competitor: String
        let from: String
        let to: String
        let direction: String
        let announcementForA: String
        let announcementForB: String
    }

    let durationSeconds: Int
    /// "a", "b" or "draw".
    let outcome: String
    let marginSeconds: Int
    let a: Side
    let b: Side
    let events: [Event]?

    init(result: CompetitionResult, includeEvents: Bool) {
        durationSeconds = result.durationSeconds
        outcome =
            switch result.outcome {
            case .winner(let side): side.rawValue
            case .draw: "draw"
            }
        marginSeconds = result.marginSeconds
        func side(_ record: CompetitorRecord) -> Side {
            Side(
                score: record.score,
                timeInZoneSeconds: Dictionary(
                    uniqueKeysWithValues: ReserveZone.allCases.map {
                        ($0.identifier, record.timeInZone[$0])
                    }))
        }
        a = side(result.a)
        b = side(result.b)
        events =
            includeEvents
            ? result.events.map { event in
                Event(
                    second: event.second, competitor: event.competitor.rawValue,
                    from: event.from.identifier, to: event.to.identifier, direction: event.direction.rawValue,
                    announcementForA: event.announcement(for: .a), announcementForB: event.announcement(for: .b))
            } : nil
    }

    var table: String {
        var lines = ["Challenge  \(durationSeconds) s"]
        switch outcome {
        case "draw": lines.append("Result     draw (\(a.score) s each)")
        default: lines.append("Result     \(outcome.uppercased()) wins by \(marginSeconds) s")
        }
        lines.append("")
        var scores = TextTable(header: ["", "A", "B"], rightAligned: [1, 2])
        scores.rows.append(["Score (s ahead)", "\(a.score)", "\(b.score)"])
        for zone in ReserveZone.allCases {
            scores.rows.append([
                "\(zone.displayName) (s)",
                "\(a.timeInZoneSeconds[zone.identifier] ?? 0)",
                "\(b.timeInZoneSeconds[zone.identifier] ?? 0)",
            ])
        }
        lines.append(scores.render())
        if let events {
            lines.append("")
            var table = TextTable(header: ["Second", "Side", "Change", "Announced to A", "Announced to B"], rightAligned: [0])
            for event in events {
                table.rows.append([
                    "\(event.second)", event.competitor.uppercased(), "\(event.from) → \(event.to)",
                    event.announcementForA, event.announcementForB,
                ])
            }
            lines.append(table.render())
        }
        return lines.joined(separator: "\n")
    }
}
