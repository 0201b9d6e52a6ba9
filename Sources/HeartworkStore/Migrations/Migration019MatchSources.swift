extension Migration {
    /// Fair matches (issue 23): a match created as practice (the slider may play), and where
    /// each side's heart rate came from (`MatchReadingSource`s, comma-separated). Matches
    /// finished before have none recorded.
    static let matchSources = Migration(version: 19, name: "practice matches and reading sources") { _ in
        [
            "ALTER TABLE matches ADD COLUMN practice INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE matches ADD COLUMN sources_a TEXT",
            "ALTER TABLE matches ADD COLUMN sources_b TEXT",
        ]
    }
}
