import Foundation
import HeartworkStore

/// FitLabTeam F3's "sort by team" (issue 25): "sort the table in function of the teams,
/// showing which players are in which team or even if they are not in any team". The
/// players list shows one group per team, teams in name order, then the players in no team;
/// inside a group by shirt number as a coach reads a squad (2 before 10; without a number
/// last), then by surname and first name.
public struct PlayerGroup: Sendable, Hashable {
    /// Nil: the players in no team (always the last group).
    public let team: TeamRecord?
    public let players: [PlayerRecord]

    /// The groups that have players: `teams` by name, then the players in none of them.
    public static func byTeam(_ players: [PlayerRecord], teams: [TeamRecord]) -> [PlayerGroup] {
        let known = Set(teams.map(\.id))
        var groups = teams.sorted(by: Self.teamOrder).compactMap { team -> PlayerGroup? in
            let members = players.filter { $0.teamID == team.id }
            return members.isEmpty ? nil : PlayerGroup(team: team, players: members.sorted(by: Self.squadOrder))
        }
        let loose = players.filter { $0.teamID.map { !known.contains($0) } ?? true }
        if !loose.isEmpty { groups.append(PlayerGroup(team: nil, players: loose.sorted(by: Self.squadOrder))) }
        return groups
    }

    static func teamOrder(_ left: TeamRecord, _ right: TeamRecord) -> Bool {
        let order = left.name.localizedStandardCompare(right.name)
        return order == .orderedSame ? (left.createdAt, left.id) < (right.createdAt, right.id) : order == .orderedAscending
    }

    /// Number (numerically: "2" < "10"; none last), then surname, first name, id.
    public static func squadOrder(_ left: PlayerRecord, _ right: PlayerRecord) -> Bool {
        squadOrder(
            numbers: (left.number, right.number), names: [(left.surname, right.surname), (left.firstName, right.firstName)], ids: (left.id, right.id))
    }

    /// The one squad order (the players list, the coach screen's picker and tiles, the review):
    /// by shirt number as a coach reads a squad (2 before 10; without a number last), then by
    /// `names` in turn, then by id so that the order never depends on the input's.
    static func squadOrder(numbers: (String?, String?), names: [(String, String)], ids: (String, String)) -> Bool {
        switch numbers {
        case (.some, nil): return true
        case (nil, .some): return false
        case (.some(let left), .some(let right)):
            let order = left.localizedStandardCompare(right)
            if order != .orderedSame { return order == .orderedAscending }
        case (nil, nil): break
        }
        for (left, right) in names {
            let order = left.localizedStandardCompare(right)
            if order != .orderedSame { return order == .orderedAscending }
        }
        return ids.0 < ids.1
    }
}
