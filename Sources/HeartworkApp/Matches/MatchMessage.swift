import Foundation
import HeartworkCore
import HeartworkStore

/// What a match room tells one player, from that player's side (the server's edge writes it
/// as the JSON of docs/PROTOCOL.md §10).
public enum MatchMessage: Sendable {
    public struct SideState: Sendable, Hashable {
        /// The player's own heart rate this second; never the opponent's (seed-000 F16).
        public let beatsPerMinute: Double?
        public let zone: ReserveZone
        public let score: Int
        public let progressPercent: Int
    }

    /// Who is in the room ("a", "b"), and which side the recipient is.
    case lobby(you: String, present: [String], ghost: Bool)
    /// The countdown: second 0 begins at `at` (Unix ms); `now` is the server's clock when
    /// sent, so a client can correct its own; `secondMilliseconds` is 1000 outside tests.
    case start(atMilliseconds: Int64, nowMilliseconds: Int64, durationSeconds: Int, secondMilliseconds: Int)
    case state(second: Int, you: SideState, opponent: SideState)
    /// A confirmed zone change of `who` ("you" or "opponent") with the sentence to speak.
    case event(second: Int, who: String, direction: String, zone: ReserveZone, text: String)
    /// A reading that was not taken (the match state is unchanged).
    case refused(second: Int?, detail: String)
    case end(MatchRecord)
    /// The room closed without a result (declined, expired, opened elsewhere).
    case closed(reason: String, detail: String)
}
