extension Migration {
    /// Heart-rate matches and the notifications users get (issue 10, HeartMate F15–F20,
    /// F30–F35). Side `a` is whoever created the match; side `b` is the invited friend, or
    /// the ghost (a stored workout). The zone anchors of both sides are copied in when the
    /// match starts (a ghost's at creation, from the workout's stored profile), so a result
    /// never changes when someone edits their profile later. With several instances on
    /// PostgreSQL, `host` names the instance whose memory holds the match's room, for as long
    /// as its lease (`host_until`) is renewed.
    static let matches = Migration(version: 6, name: "matches and notifications") { engine in
        [
            """
            CREATE TABLE matches (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                challenger_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                opponent_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                ghost_workout_id TEXT,
                ghost_owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                duration_seconds INTEGER NOT NULL,
                state TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                started_at BIGINT,
                ended_at BIGINT,
                a_resting_hr \(engine.doubleType),
                a_max_hr \(engine.doubleType),
                b_resting_hr \(engine.doubleType),
                b_max_hr \(engine.doubleType),
                score_a INTEGER,
                score_b INTEGER,
                winner TEXT,
                end_reason TEXT,
                forfeited_by TEXT,
                seconds_played INTEGER,
                zones_a TEXT,
                zones_b TEXT,
                host TEXT,
                host_until BIGINT
            )
            """,
            "CREATE INDEX matches_challenger ON matches (challenger_id, created_at)",
            "CREATE INDEX matches_opponent ON matches (opponent_id, created_at)",
            "CREATE INDEX matches_ghost_owner ON matches (ghost_owner_id, created_at)",
            """
            CREATE TABLE user_notifications (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                text TEXT NOT NULL,
                link TEXT,
                actor_id TEXT,
                created_at BIGINT NOT NULL,
                read_at BIGINT
            )
            """,
            "CREATE INDEX user_notifications_user ON user_notifications (user_id, created_at)",
        ]
    }
}
