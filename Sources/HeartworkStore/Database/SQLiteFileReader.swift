import Foundation
import HeartworkFormats
import Logging
import NIOCore
import NIOPosix
import SQLiteKit

/// Reads an uploaded SQLite file (a Gadgetbridge export), read-only, with the SQLite engine the
/// store links: its tables and columns, and a table's rows a page at a time in key order, so a
/// table of any size never sits in memory at once. The file is opened as an immutable
/// read-only URI (`mode=ro&immutable=1`): nothing is written beside it, no journal is replayed.
///
/// The file's schema is the uploader's, so it is not trusted: `trusted_schema` is off, and a
/// table is read only if it is a plain table (`refusal(of:)`): a virtual table (fts5, rtree…)
/// would run its module over tables the file made up, a generated column would evaluate the
/// file's expression for every row read. The queries run on the reader's own thread (started
/// and shut down with it), not on the thread pool the server shares with sign-in's bcrypt.
///
/// A file that cannot be opened throws `SQLiteFileReader.Failure` with a fixed message (never
/// the upload's path); one that is not a database, or a corrupt one, with SQLite's own words.
public final class SQLiteFileReader: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What `open` says of a file SQLite cannot open (a missing or unreadable file).
    public static let cannotOpen = "the file cannot be opened as an SQLite database"

    private let connection: SQLiteConnection
    /// The reader's own thread: a scan of a large upload does not hold up the server's
    /// shared `NIOThreadPool.singleton` (SQLiteNIO's default, also bcrypt's at sign-in).
    private let threadPool: NIOThreadPool

    /// Whether the reader's queries run on the shared pool (never: for tests).
    var runsOnSharedThreadPool: Bool { threadPool === NIOThreadPool.singleton }

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.connection = connection
        self.threadPool = threadPool
    }

    public static func open(path: String) async throws -> SQLiteFileReader {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: "file:\(escaped)?mode=ro&immutable=1"), threadPool: threadPool, logger: Logger(label: "heartwork.sqlite-file"),
                on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            // SQLiteNIO's words name the file ("Failed to open to SQLite database at file:/…").
            try? await threadPool.shutdownGracefully()
            throw Failure(description: cannotOpen)
        }
        let reader = SQLiteFileReader(connection: connection, threadPool: threadPool)
        do {
            _ = try await connection.query("PRAGMA trusted_schema = OFF")
            _ = try await connection.query("PRAGMA query_only = ON")
            // The schema is read here: a file that is not a database fails now.
            _ = try await reader.tables()
        } catch {
            await reader.close()
            throw Failure(description: "the file cannot be read as an SQLite database (\(Self.describe(error)))")
        }
        return reader
    }

    public func close() async {
        try? await connection.close()
        try? await threadPool.shutdownGracefully()
    }

    /// The file's tables (at most 10,000 names).
    public func tables() async throws -> [String] {
        try await run("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 10000").compactMap { $0.column("name")?.string }
    }

    /// Whether the connection trusts the file's schema (never: set off when it is opened).
    func trustedSchema() async throws -> Bool {
        try await run("PRAGMA trusted_schema").first?.column("trusted_schema")?.integer != 0
    }

    /// Why `table` is not read, or nil for a plain table: a virtual table (its `sqlite_master`
    /// entry is not `CREATE TABLE` with a root page; every entry SQLite could take for the name,
    /// which it compares without case) or one with generated or hidden columns
    /// (`pragma_table_xinfo`'s `hidden` not 0). Nothing of the table itself is run to tell.
    public func refusal(of table: String) async throws -> String? {
        let entries = try await run(
            "SELECT type, sql, rootpage FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE LIMIT 10", [.text(table)])
        guard !entries.isEmpty else { return "no such table" }
        for entry in entries {
            guard entry.column("type")?.string == "table" else { return "a view" }
            guard let sql = entry.column("sql")?.string, Self.isPlainCreateTable(sql), (entry.column("rootpage")?.integer ?? 0) > 0 else {
                return "a virtual table"
            }
        }
        let hidden = try await run("SELECT COUNT(*) AS n FROM pragma_table_xinfo(?) WHERE hidden <> 0", [.text(table)])
        if (hidden.first?.column("n")?.integer ?? 0) > 0 { return "generated columns" }
        return nil
    }

    /// Whether a schema entry's SQL is a plain `CREATE TABLE` (comments and white space skipped
    /// as SQLite's tokenizer skips them), not `CREATE VIRTUAL TABLE`.
    static func isPlainCreateTable(_ sql: String) -> Bool {
        var words = [String]()
        var rest = Substring(sql)
        while words.count < 2, !rest.isEmpty {
            if let first = rest.first, first.isWhitespace {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                if let end = rest.dropFirst(2).range(of: "*/") { rest = rest[end.upperBound...] } else { rest = "" }
            } else {
                let word = rest.prefix { $0.isLetter }
                guard !word.isEmpty else { break }
                words.append(word.uppercased())
                rest = rest.dropFirst(word.count)
            }
        }
        return words == ["CREATE", "TABLE"]
    }

    /// Throws unless `table` is a plain table (`refusal(of:)`): checked before every query of
    /// a table's rows or columns.
    private func requirePlain(_ table: String) async throws {
        if let reason = try await refusal(of: table) { throw Failure(description: "\(table) is not read (\(reason))") }
    }

    /// A table's columns, in order.
    public func columns(of table: String) async throws -> [String] {
        try await requirePlain(table)
        return try await run("SELECT name FROM pragma_table_info(?) LIMIT 10000", [.text(table)]).compactMap { $0.column("name")?.string }
    }

    /// How many rows a table has (counted up to `limit`).
    public func count(_ table: String, limit: Int = 100_000_000) async throws -> Int {
        try await requirePlain(table)
        let rows = try await run("SELECT COUNT(*) AS n FROM (SELECT 1 FROM \(Self.quote(table)) LIMIT \(max(0, limit)))")
        return rows.first?.column("n")?.integer ?? 0
    }

    /// Whether SQLite reads the table in `key` order from an index (its primary key or
    /// another), rather than sorting it: without one, every page of `page` would scan and sort
    /// the whole table (issue 40: 400,000 rows without their index took 46.7 s against 10.1).
    public func keyIsIndexed(_ table: String, key: [String]) async throws -> Bool {
        try await requirePlain(table)
        guard !key.isEmpty else { return true }
        let plan = try await run("EXPLAIN QUERY PLAN SELECT 1 FROM \(Self.quote(table)) ORDER BY \(key.map(Self.quote).joined(separator: ", "))")
        return !plan.contains { ($0.column("detail")?.string ?? "").contains("TEMP B-TREE") }
    }

    /// How many rows have a key column that is not a number (such rows are never read).
    public func countUnkeyed(_ table: String, key: [String]) async throws -> Int {
        try await requirePlain(table)
        let condition = key.map { "typeof(\(Self.quote($0))) NOT IN ('integer', 'real')" }.joined(separator: " OR ")
        let rows = try await run("SELECT COUNT(*) AS n FROM \(Self.quote(table)) WHERE \(condition)")
        return rows.first?.column("n")?.integer ?? 0
    }

    /// The next page of a table: `columns` (the key's columns first, in the key's order) of at
    /// most `limit` rows after `after` (the last row's key, nil for the first page), in key
    /// order. Rows whose key is not a number are left out; text comes back cut at 200 characters,
    /// blobs as their length only.
    public func page(_ table: String, columns: [String], key: [String], after: [DatabaseValue]?, limit: Int) async throws -> [[DatabaseValue]] {
        try await requirePlain(table)
        let keyList = key.map(Self.quote).joined(separator: ", ")
        var conditions = key.map { "typeof(\(Self.quote($0))) IN ('integer', 'real')" }
        var binds = [SQLiteData]()
        if let after, after.count == key.count {
            conditions.append("(\(keyList)) > (\(Array(repeating: "?", count: key.count).joined(separator: ", ")))")
            for value in after {
                switch value {
                case .integer(let number): binds.append(.integer(Int(number)))
                case .real(let number): binds.append(.float(number))
                default: binds.append(.null)
                }
            }
        }
        let selected = columns.enumerated().map { index, name in
            let column = Self.quote(name)
            return key.contains(name)
                ? "\(column) AS c\(index)"
                : "CASE WHEN typeof(\(column)) = 'blob' THEN -length(\(column)) - 1 WHEN typeof(\(column)) = 'text' THEN substr(\(column), 1, 200) ELSE \(column) END AS c\(index), typeof(\(column)) AS t\(index)"
        }
        let order = key.isEmpty ? "" : " ORDER BY \(keyList)"
        let sql = """
            SELECT \(selected.joined(separator: ", ")) FROM \(Self.quote(table)) WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))\(order) \
            LIMIT \(max(1, limit))
            """
        return try await run(sql, binds).map { row in
            columns.indices.map { index in
                let value = row.column("c\(index)") ?? .null
                if row.column("t\(index)")?.string == "blob" { return .blob(max(0, -(value.integer ?? -1) - 1)) }
                switch value {
                case .integer(let number): return .integer(Int64(number))
                case .float(let number): return .real(number)
                case .text(let text): return .text(text)
                case .blob(let buffer): return .blob(buffer.readableBytes)
                case .null: return .null
                }
            }
        }
    }

    /// Every row of a small table (`DEVICE`), at most `limit`.
    public func all(_ table: String, columns: [String], limit: Int) async throws -> [[DatabaseValue]] {
        try await page(table, columns: columns, key: [], after: nil, limit: limit)
    }

    private func run(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw Failure(description: Self.describe(error))
        }
    }

    /// SQLite's words for a failed query (`sqlite3_errmsg`: no file names); anything else by a
    /// fixed text, never its own description (which might name the upload's path).
    static func describe(_ error: any Error) -> String {
        if let error = error as? Failure { return error.description }
        if let error = error as? SQLiteError { return error.message }
        return "the database engine failed"
    }

    /// An identifier in double quotes (quotes inside doubled).
    static func quote(_ name: String) -> String {
        "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
    }
}
