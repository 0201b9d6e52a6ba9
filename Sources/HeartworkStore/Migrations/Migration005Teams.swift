extension Migration {
    /// Players, teams and team sessions (issue 9, FitLabTeam F3–F10). A player is in at most
    /// one team (`players.team_id`); within a team a sensor is worn by at most one player (the
    /// unique index; NULLs do not collide on either engine). A team session is a time window
    /// over the raw feed: its players and the sensor each wore are recorded with a snapshot of
    /// the facts the review needs, so later edits to a player do not rewrite a session.
    static let teams = Migration(version: 5, name: "players, teams and team sessions") { engine in
        [
            """
            CREATE TABLE teams (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX teams_user ON teams (user_id, created_at)",
            """
            CREATE TABLE players (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                number TEXT,
                birth_date TEXT,
                sex TEXT,
                resting_hr INTEGER,
                max_hr INTEGER,
                weight_kg DOUBLE PRECISION,
                team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
                sensor_id TEXT REFERENCES sensors(id) ON DELETE SET NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX players_user ON players (user_id, name)",
            "CREATE UNIQUE INDEX players_team_sensor ON players (team_id, sensor_id)",
            """
            CREATE TABLE player_photos (
                player_id TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                data \(engine.blobType) NOT NULL
            )
            """,
            """
            CREATE TABLE team_sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
                state TEXT NOT NULL,
                starts_at BIGINT NOT NULL,
                planned_seconds INTEGER,
                ended_at BIGINT,
                reviewed INTEGER NOT NULL DEFAULT 0,
                exported INTEGER NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX team_sessions_team ON team_sessions (team_id, starts_at)",
            """
            CREATE TABLE team_session_players (
                session_id TEXT NOT NULL REFERENCES team_sessions(id) ON DELETE CASCADE,
                player_id TEXT NOT NULL,
                sensor_id TEXT NOT NULL,
                name TEXT NOT NULL,
                number TEXT,
                sex TEXT,
                age_years INTEGER,
                resting_hr INTEGER,
                max_hr INTEGER,
                weight_kg DOUBLE PRECISION,
                PRIMARY KEY (session_id, player_id)
            )
            """,
        ]
    }
}
