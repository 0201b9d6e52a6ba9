extension Migration {
    /// Issue 25, FitLabTeam F4: a team's optional photo, one row a team, the same shape as a
    /// player's (`player_photos`) and kept by the same store code; it goes with its team.
    static let teamPhoto = Migration(version: 32, name: "team photo") { engine in
        [
            """
            CREATE TABLE team_photos (
                team_id TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                data \(engine.blobType) NOT NULL
            )
            """,
            // The team list's session counts (`sessionCounts`) read a coach's saved sessions.
            "CREATE INDEX team_sessions_user_state ON team_sessions (user_id, state)",
        ]
    }
}
