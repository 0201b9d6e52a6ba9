import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// A match as its players see it (docs/PROTOCOL.md §10).
struct MatchResponse: ResponseEncodable {
    struct Person: Encodable {
        let id: String
        let username: String
        let fullName: String
    }

    struct Ghost: Encodable {
        let workoutID: String?
        let owner: Person?
    }

    struct Side: Encodable {
        let score: Int
        let timeInZoneSeconds: [String: Int]
        /// The side's heart rate second by second as played (null: no reading or lost
        /// contact) — both sides', once the match is over (seed-000 Fig. 5.26b), to its players
        /// only (empty for the owner of a raced ghost); empty for a side that ended the match
        /// with End (its data is discarded).
        let heartRate: [Int?]
        /// Where the side's heart rate came from: "strap" (the page sent the strap's bytes),
        /// "gateway" (a strap one of the player's gateways hears), "practice" (the slider),
        /// "recording" (a ghost); empty when nothing came, or for matches from before.
        let sources: [String]
        /// Seconds of the side's live heart rate that a heart could not make (RR intervals
        /// that disagree with the rate, a jump of more than 30 bpm a second, a flat line):
        /// they counted as lost contact (PROTOCOL.md §10). 0 for practice and ghosts.
        let implausibleSeconds: Int
    }

    struct Result: Encodable {
        /// "a", "b", or null for a draw (or when both fell silent).
        let winner: String?
        /// From the viewer's side: "won", "lost", "draw" (null for the owner of a raced ghost).
        let outcome: String?
        let marginSeconds: Int
        /// "time", "left", "silence" or "interrupted" (the server stopped mid-match).
        let reason: String
        let forfeitedBy: String?
        let secondsPlayed: Int
        let a: Side
        let b: Side
    }

    let id: String
    let kind: String
    let state: String
    /// The viewer's side ("a" challenger, "b" opponent), null for the owner of a raced ghost.
    let you: String?
    let durationSeconds: Int
    /// Practice (every ghost race, and matches created with `"practice": true`): the slider
    /// may play; its results say "practice" everywhere.
    let practice: Bool
    let challenger: Person?
    let opponent: Person?
    let ghost: Ghost?
    let createdAt: Date
    let expiresAt: Date
    let startedAt: Date?
    let endedAt: Date?
    let room: String
    let result: Result?
    /// The workout the viewer saved from this match, if any.
    let workoutID: String?

    init(_ match: MatchRecord, viewer: UserRecord, people: [String: UserRecord]) {
        func person(_ id: String?) -> Person? {
            guard let id, let user = people[id] else { return nil }
            return Person(id: user.id, username: user.username, fullName: user.fullName)
        }
        id = match.id
        kind = match.kind.rawValue
        state = match.state.rawValue
        you = match.side(of: viewer.id)
        durationSeconds = match.durationSeconds
        practice = match.isPractice
        challenger = person(match.challengerID)
        opponent = person(match.opponentID)
        ghost = match.kind == .ghost ? Ghost(workoutID: match.ghostWorkoutID, owner: person(match.ghostOwnerID)) : nil
        createdAt = match.createdAt
        expiresAt = match.expiresAt
        startedAt = match.startedAt
        endedAt = match.endedAt
        room = "/api/live/matches/\(match.id)"
        workoutID = match.side(of: viewer.id).flatMap { $0 == "a" ? match.workoutA : match.workoutB }
        result = match.result.map { stored in
            func side(_ zones: [Int], _ score: Int, _ heartRate: [Int?], _ sources: [MatchReadingSource], _ implausible: Int) -> Side {
                Side(
                    score: score,
                    timeInZoneSeconds: Dictionary(
                        uniqueKeysWithValues: ReserveZone.allCases.map { zone in
                            (zone.identifier, zone.rawValue < zones.count ? zones[zone.rawValue] : 0)
                        }),
                    heartRate: heartRate, sources: sources.map(\.rawValue), implausibleSeconds: implausible)
            }
            let viewerSide = match.side(of: viewer.id)
            let outcome: String? = viewerSide.map { side in stored.winner == nil ? "draw" : (stored.winner == side ? "won" : "lost") }
            return Result(
                winner: stored.winner, outcome: outcome, marginSeconds: abs(stored.scoreA - stored.scoreB), reason: stored.reason,
                forfeitedBy: stored.forfeitedBy, secondsPlayed: stored.secondsPlayed,
                // The owner of a raced ghost (no side) never sees the racer's heart rate.
                a: side(stored.zonesA, stored.scoreA, viewerSide == nil ? [] : stored.heartRateA, stored.sourcesA, stored.implausibleSecondsA),
                b: side(stored.zonesB, stored.scoreB, stored.heartRateB, stored.sourcesB, stored.implausibleSecondsB))
        }
    }
}

struct MatchListResponse: ResponseEncodable {
    let matches: [MatchResponse]
}

struct NotificationResponse: ResponseEncodable {
    let id: String
    let kind: String
    let text: String
    let link: String?
    let createdAt: Date
    let read: Bool

    init(_ notice: InboxRecord) {
        id = notice.id
        kind = notice.kind
        text = notice.text
        link = notice.link
        createdAt = notice.createdAt
        read = notice.readAt != nil
    }
}

struct NotificationListResponse: ResponseEncodable {
    let notifications: [NotificationResponse]
    let unread: Int
}

struct UnreadResponse: ResponseEncodable {
    let unread: Int
}
