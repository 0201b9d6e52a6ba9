extension Migration {
    /// Issue 25: a user's own exercises — made on the exercises page, or by an import for a
    /// name the catalogue lacks — so their sets keep a history and a 1RM like the catalogue's
    /// (`exercise_stats` and `strength_sets` name them by id, `custom-…`). A name is the
    /// user's once: `name_key` is `StrengthCatalogue.nameKey` of it (word order, case and a
    /// final s ignored). They go with the account (ON DELETE CASCADE).
    static let customExercises = Migration(version: 25, name: "custom exercises") { _ in
        [
            """
            CREATE TABLE strength_custom_exercises (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL,
                muscle_group TEXT NOT NULL,
                equipment TEXT NOT NULL,
                loaded INTEGER NOT NULL,
                measure TEXT NOT NULL,
                source TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX strength_custom_exercises_name ON strength_custom_exercises (user_id, name_key)",
        ]
    }
}
