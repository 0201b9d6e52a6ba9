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
/// A file that is not a database, or a corrupt one, throws `SQLiteFileReader.Failure` with
/// SQLite's own words.
public final class SQLiteFileReader: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let connection: SQLiteConnection

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    public static func open(path: String) async throws -> SQLiteFileReader {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        do {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: "file:\(escaped)?mode=ro&immutable=1"), threadPool: .singleton, logger: Logger(label: "heartwork.sqlite-file"),
                on: MultiThreadedEventLoopGroup.singleton.any())
            let reader = SQLiteFileReader(connection: connection)
            do {
                _ = try await connection.query("PRAGMA query_only = ON")
                // The schema is read here: a file that is not a database fails now.
                _ = try await reader.tables()
            } catch {
                try? await connection.close()
                throw error
            }
            return reader
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the file cannot be read as an SQLite database (\(Self.describe(error)))")
        }
    }

    public func close() async {
        try? await connection.close()
    }

    /// The file's tables (at most 10,000 names).
    public func tables() async throws -> [String] {
        try await run("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 10000").compactMap { $0.column("name")?.string }
    }

    /// A table's columns, in order.
    public func columns(of table: String) async throws -> [String] {
        try await run("SELECT name FROM pragma_table_info(?) LIMIT 10000", [.text(table)]).compactMap { $0.column("name")?.string }
    }

    /// How many rows a table has (counted up to `limit`).
    public func count(_ table: String, limit: Int = 100_000_000) async throws -> Int {
        let rows = try await run("SELECT COUNT(*) AS n FROM (SELECT 1 FROM \(Self.quote(table)) LIMIT \(max(0, limit)))")
        return rows.first?.column("n")?.integer ?? 0
    }

    /// How many rows have a key column that is not a number (such rows are never read).
    public func countUnkeyed(_ table: String, key: [String]) async throws -> Int {
        let condition = key.map { "typeof(\(Self.quote($0))) NOT IN ('integer', 'real')" }.joined(separator: " OR ")
        let rows = try await run("SELECT COUNT(*) AS n FROM \(Self.quote(table)) WHERE \(condition)")
        return rows.first?.column("n")?.integer ?? 0
    }

    /// The next page of a table: `columns` (the key's columns first, in the key's order) of at
    /// most `limit` rows after `after` (the last row's key, nil for the first page), in key
    /// order. Rows whose key is not a number are left out; text comes back cut at 200 characters,
    /// blobs as their length only.
    public func page(_ table: String, columns: [String], key: [String], after: [DatabaseValue]?, limit: Int) async throws -> [[DatabaseValue]] {
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

    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.message }
        return "\(error)"
    }

    /// An identifier in double quotes (quotes inside doubled).
    static func quote(_ name: String) -> String {
        "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
    }
}
