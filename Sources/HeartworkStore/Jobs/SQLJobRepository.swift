import Foundation
import SQLKit

struct SQLJobRepository: JobRepository {
    let database: DatabaseConnection

    static let columns: SQLQueryString = """
        id, kind, user_id, payload, state, attempts, max_attempts, run_after, locked_by, locked_until, last_error, created_at, finished_at
        """

    func enqueue(_ job: JobRecord) async throws {
        try await database.execute(Self.insert(job))
    }

    /// The statement that queues `job`: repositories that write a row and its job in one
    /// transaction run it on their transaction's connection.
    static func insert(_ job: JobRecord) -> SQLQueryString {
        """
        INSERT INTO jobs (\(columns)) VALUES (\(bind: job.id), \(bind: job.kind), \(bind: job.userID), \(bind: job.payload),
            \(bind: job.state.rawValue), \(bind: job.attempts), \(bind: job.maxAttempts), \(bind: job.runAfter.millisecondsSince1970),
            NULL, NULL, NULL, \(bind: job.createdAt.millisecondsSince1970), NULL)
        """
    }

    func enqueueUnlessQueued(_ job: JobRecord) async throws -> Bool {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            if database.engine == .postgres {
                // Two instances queueing the same work at once: one waits for the other.
                try await sql.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: job.kind + "\u{1F}" + job.payload)))").run()
            }
            if try await sql.readFirst(
                """
                SELECT id FROM jobs WHERE kind = \(bind: job.kind) AND payload = \(bind: job.payload) AND state = 'queued' AND attempts = 0\(lock)
                """) != nil
            {
                return false
            }
            try await sql.raw(
                """
                INSERT INTO jobs (\(Self.columns)) VALUES (\(bind: job.id), \(bind: job.kind), \(bind: job.userID), \(bind: job.payload),
                    'queued', 0, \(bind: job.maxAttempts), \(bind: job.runAfter.millisecondsSince1970), NULL, NULL, NULL,
                    \(bind: job.createdAt.millisecondsSince1970), NULL)
                """
            ).run()
            return true
        }
    }

    func claim(worker: String, now: Date, leaseUntil: Date, kinds: [String]) async throws -> JobRecord? {
        guard !kinds.isEmpty else { return nil }
        let skipLocked: SQLQueryString = database.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let now = now.millisecondsSince1970
        var kindList = SQLQueryString("")
        for (i, kind) in kinds.enumerated() {
            if i > 0 { kindList.appendLiteral(", ") }
            kindList.appendInterpolation(bind: kind)
        }
        let inList = kindList
        return try await database.transaction { sql in
            if database.engine == .postgres {
                // Claims one at a time across instances, so "this user has a job running" below
                // is never two claims' blind spot (a claim is one short transaction).
                try await sql.raw("SELECT pg_advisory_xact_lock(7261944)").run()
            }
            // Due: queued and past its time, or running with a lease that ran out (its worker
            // died) — and fair: never a job of a user who has one running under a live lease,
            // so one user's long or hostile job holds at most one worker.
            guard
                let row = try await sql.readFirst(
                    """
                    SELECT \(Self.columns) FROM jobs j WHERE kind IN (\(inList)) AND ((state = 'queued' AND run_after <= \(bind: now))
                        OR (state = 'running' AND locked_until < \(bind: now)))
                        AND (user_id IS NULL OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.user_id = j.user_id AND r.id <> j.id
                            AND r.state = 'running' AND r.locked_until >= \(bind: now)))
                    ORDER BY run_after, created_at LIMIT 1\(skipLocked)
                    """)
            else { return nil }
            var job = try Self.record(row)
            job.state = .running
            job.attempts += 1
            job.lockedBy = worker
            job.lockedUntil = leaseUntil
            try await sql.raw(
                """
                UPDATE jobs SET state = 'running', attempts = \(bind: job.attempts), locked_by = \(bind: worker),
                    locked_until = \(bind: leaseUntil.millisecondsSince1970) WHERE id = \(bind: job.id)
                """
            ).run()
            return job
        }
    }

    func renew(id: String, worker: String, leaseUntil: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM jobs WHERE id = \(bind: id) AND state = 'running' AND locked_by = \(bind: worker)") != nil else { return false }
            try await sql.raw("UPDATE jobs SET locked_until = \(bind: leaseUntil.millisecondsSince1970) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func complete(id: String, worker: String, now: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM jobs WHERE id = \(bind: id) AND state = 'running' AND locked_by = \(bind: worker)") != nil else { return false }
            try await sql.raw(
                """
                UPDATE jobs SET state = 'done', locked_by = NULL, locked_until = NULL, last_error = NULL,
                    finished_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: id)
                """
            ).run()
            return true
        }
    }

    func fail(id: String, worker: String, error: String, retryAt: Date?, now: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard
                let row = try await sql.readFirst(
                    """
                    SELECT attempts, max_attempts FROM jobs WHERE id = \(bind: id) AND state = 'running' AND locked_by = \(bind: worker)
                    """)
            else { return false }
            let message = String(error.prefix(1000))
            if let retryAt, try row.int("attempts") < row.int("max_attempts") {
                try await sql.raw(
                    """
                    UPDATE jobs SET state = 'queued', locked_by = NULL, locked_until = NULL, last_error = \(bind: message),
                        run_after = \(bind: retryAt.millisecondsSince1970) WHERE id = \(bind: id)
                    """
                ).run()
            } else {
                try await sql.raw(
                    """
                    UPDATE jobs SET state = 'failed', locked_by = NULL, locked_until = NULL, last_error = \(bind: message),
                        finished_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: id)
                    """
                ).run()
            }
            return true
        }
    }

    func find(id: String) async throws -> JobRecord? {
        try await database.first("SELECT \(Self.columns) FROM jobs WHERE id = \(bind: id)").map(Self.record)
    }

    func counts() async throws -> [JobRecord.State: Int] {
        var counts = [JobRecord.State: Int]()
        for row in try await database.all("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state") {
            if let state = JobRecord.State(rawValue: try row.string("state")) { counts[state] = try row.int("n") }
        }
        return counts
    }

    func prune(before: Date) async throws -> Int {
        let stale =
            try await database.first(
                """
                SELECT COUNT(*) AS n FROM jobs WHERE state IN ('done', 'failed') AND finished_at < \(bind: before.millisecondsSince1970)
                """
            ).map { try $0.int("n") } ?? 0
        if stale > 0 {
            try await database.execute("DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < \(bind: before.millisecondsSince1970)")
        }
        return stale
    }

    static func record(_ row: any ColumnReader) throws -> JobRecord {
        var job = JobRecord(
            id: try row.string("id"), kind: try row.string("kind"), userID: try row.optionalString("user_id"),
            payload: try row.string("payload"), maxAttempts: try row.int("max_attempts"), runAfter: try row.date("run_after"),
            createdAt: try row.date("created_at"))
        guard let state = JobRecord.State(rawValue: try row.string("state")) else { throw StoreError.corruptData("job \(job.id): state") }
        job.state = state
        job.attempts = try row.int("attempts")
        job.lockedBy = try row.optionalString("locked_by")
        job.lockedUntil = try row.optionalDate("locked_until")
        job.lastError = try row.optionalString("last_error")
        job.finishedAt = try row.optionalDate("finished_at")
        return job
    }
}
