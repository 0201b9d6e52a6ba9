import Foundation
import SQLKit

extension Migration {
    /// Issue 25, FitLabTeam F3: a player's first name and surname, both required by the seed
    /// (stored apart; `name` keeps "First Surname" for what reads it whole: the account
    /// export, the list's order). The players stored before are split in Swift after the
    /// statements, in the migration's transaction (`SplitPlayerNames`): at the last space of
    /// `name`; a one-word name is the first name, and the surname stays empty (the player's
    /// page says "Surname not given" until the coach writes one).
    static let playerNames = Migration(version: 28, name: "player first name and surname") { _ in
        [
            "ALTER TABLE players ADD COLUMN first_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE players ADD COLUMN surname TEXT NOT NULL DEFAULT ''",
        ]
    }
}

/// Fills `first_name` and `surname` of the players that have neither, from `name`
/// (`PlayerName.split`), a batch at a time by id. Running it again changes nothing.
enum SplitPlayerNames {
    static let batchSize = 500

    /// How many players were split.
    static func run(_ sql: any SQLDatabase, batchSize: Int = batchSize) async throws -> Int {
        var after = ""
        var split = 0
        while true {
            let rows = try await sql.readAll(
                """
                SELECT id, name FROM players WHERE first_name = '' AND surname = '' AND id > \(bind: after)
                ORDER BY id LIMIT \(unsafeRaw: String(batchSize))
                """)
            guard let last = rows.last else { return split }
            for row in rows {
                let parts = PlayerName.split(try row.string("name"))
                try await sql.raw(
                    "UPDATE players SET first_name = \(bind: parts.firstName), surname = \(bind: parts.surname) WHERE id = \(bind: try row.string("id"))"
                ).run()
                split += 1
            }
            after = try last.string("id")
        }
    }
}
