extension Migration {
    /// Accounts, photos, weight and resting heart-rate histories, sessions, sign-in failures,
    /// friend requests and friendships, workouts and their stream blobs.
    static let initial = Migration(version: 1, name: "initial") { engine in
        let double = engine.doubleType
        let blob = engine.blobType
        return [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                username_key TEXT NOT NULL UNIQUE,
                full_name TEXT NOT NULL,
                full_name_key TEXT NOT NULL,
                email TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT '',
                date_of_birth TEXT,
                sex TEXT,
                height_m \(double),
                max_hr_method TEXT NOT NULL DEFAULT 'gellish',
                measured_max_hr \(double),
                units TEXT NOT NULL DEFAULT 'metric',
                auto_share INTEGER NOT NULL DEFAULT 0,
                max_shared_workouts INTEGER NOT NULL DEFAULT 20,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE user_photos (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                data \(blob) NOT NULL
            )
            """,
            """
            CREATE TABLE weight_entries (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                measured_at BIGINT NOT NULL,
                kilograms \(double) NOT NULL
            )
            """,
            "CREATE INDEX weight_entries_user ON weight_entries (user_id, measured_at)",
            """
            CREATE TABLE resting_hr_entries (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                measured_at BIGINT NOT NULL,
                bpm \(double) NOT NULL
            )
            """,
            "CREATE INDEX resting_hr_entries_user ON resting_hr_entries (user_id, measured_at)",
            """
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                csrf_token TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE login_failures (
                id TEXT PRIMARY KEY,
                scope TEXT NOT NULL,
                failed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX login_failures_scope ON login_failures (scope, failed_at)",
            """
            CREATE TABLE friend_requests (
                id TEXT PRIMARY KEY,
                from_user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                to_user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                status TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                responded_at BIGINT
            )
            """,
            "CREATE INDEX friend_requests_to ON friend_requests (to_user, status)",
            "CREATE INDEX friend_requests_from ON friend_requests (from_user, status)",
            """
            CREATE TABLE friendships (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                friend_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, friend_id)
            )
            """,
            """
            CREATE TABLE workouts (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sport TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                indoor INTEGER NOT NULL,
                duration_s INTEGER NOT NULL,
                avg_hr \(double),
                min_hr \(double),
                max_hr \(double),
                kilocalories \(double),
                distance_m \(double),
                zone_none_s INTEGER,
                zone_low_s INTEGER,
                zone_moderate_s INTEGER,
                zone_high_s INTEGER,
                zone_red_line_s INTEGER,
                profile_age INTEGER,
                profile_resting_hr \(double),
                profile_max_hr \(double),
                profile_max_hr_method TEXT,
                profile_weight_kg \(double),
                profile_sex TEXT,
                rr_count INTEGER NOT NULL,
                track_count INTEGER NOT NULL,
                shared INTEGER NOT NULL DEFAULT 0,
                shared_at BIGINT,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX workouts_user_started ON workouts (user_id, started_at)",
            "CREATE INDEX workouts_user_shared ON workouts (user_id, shared, started_at)",
            """
            CREATE TABLE workout_streams (
                workout_id TEXT PRIMARY KEY REFERENCES workouts(id) ON DELETE CASCADE,
                heart_rate \(blob) NOT NULL,
                rr \(blob) NOT NULL,
                track \(blob) NOT NULL
            )
            """,
        ]
    }
}
