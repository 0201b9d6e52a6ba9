extension Migration {
    /// Issue 25's review: each stored day says which version of the daily formulas worked it
    /// out (`DailyCalculator.formulaVersion`); days stored before say 1, and are worked out
    /// again at the next start, so an upgrade never leaves old numbers (a capped recovery, the
    /// old intensity bands) on the pages.
    static let dailyFormula = Migration(version: 34, name: "daily formula version") { _ in
        [
            "ALTER TABLE day_metrics ADD COLUMN formula INTEGER NOT NULL DEFAULT 1",
            "CREATE INDEX day_metrics_formula ON day_metrics (formula)",
        ]
    }
}
