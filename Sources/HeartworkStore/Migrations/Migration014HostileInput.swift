extension Migration {
    /// Issue 29: the job queue claims fairly (a user with a job running waits), which asks
    /// "does this user have a job running?" for every due job: an index answers it.
    static let hostileInput = Migration(version: 14, name: "fair job queue") { _ in
        [
            "CREATE INDEX jobs_user_state ON jobs (user_id, state)"
        ]
    }
}
