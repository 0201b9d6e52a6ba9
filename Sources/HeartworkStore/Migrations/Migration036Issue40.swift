extension Migration {
    /// Issue 40. A finish marks its recording first (`closing_at`), under the row lock every
    /// chunk's insert takes, so a chunk is either stored before the finish reads the chunks or
    /// refused (409) — never answered 201 and then left out of the workout. A match keeps each
    /// side's seconds of implausible live heart rate (counted as lost contact). A Strong or Hevy
    /// import is a job, whose summary so far is kept with its import row.
    static let issue40 = Migration(version: 36, name: "recording close, implausible match seconds") { _ in
        [
            "ALTER TABLE recordings ADD COLUMN closing_at BIGINT",
            "ALTER TABLE matches ADD COLUMN implausible_a INTEGER",
            "ALTER TABLE matches ADD COLUMN implausible_b INTEGER",
            // Strong and Hevy imports are jobs: their summary so far, kept with the import.
            "ALTER TABLE health_imports ADD COLUMN summary TEXT",
        ]
    }
}
