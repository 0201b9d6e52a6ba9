extension Migration {
    /// Issue 25 (FitLabTeam F8, F11, F2). A team session's context — the seed's four settings,
    /// stored as the seed's labels (`SessionContext`), each unset for older sessions — and the
    /// RR artifact correction its HRV uses (`kubios` when unset). A sensor removed with its
    /// readings kept is marked `removed_at` (when): it leaves the lists until a gateway hears it
    /// again (a reading after that instant), and its readings stay for the sessions that used it.
    static let sessionContext = Migration(version: 27, name: "team session context, HRV correction, sensor removal") { _ in
        [
            "ALTER TABLE team_sessions ADD COLUMN context_time TEXT",
            "ALTER TABLE team_sessions ADD COLUMN context_moment TEXT",
            "ALTER TABLE team_sessions ADD COLUMN context_situation TEXT",
            "ALTER TABLE team_sessions ADD COLUMN context_state TEXT",
            "ALTER TABLE team_sessions ADD COLUMN hrv_correction TEXT",
            "ALTER TABLE sensors ADD COLUMN removed_at BIGINT",
        ]
    }
}
