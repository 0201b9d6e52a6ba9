import Foundation
import HeartworkStore
import Logging

/// The engines the contract suites run on: SQLite always, PostgreSQL when
/// HEARTWORK_TEST_POSTGRES_URL names a server (CI always sets it).
public enum TestDatabase: Sendable, CustomStringConvertible {
    case sqlite
    case postgres(url: String)

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["HEARTWORK_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var all: [TestDatabase] {
        [.sqlite] + (postgresURL.map { [.postgres(url: $0)] } ?? [])
    }

    public var description: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    public static let logger: Logger = {
        var logger = Logger(label: "heartwork.tests")
        logger.logLevel = .warning
        return logger
    }()

    /// A fresh, empty database of this engine for the duration of `body`.
    public func withFreshLocation<T: Sendable>(_ body: (DatabaseLocation) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return try await body(.sqlite(path: directory.url.appendingPathComponent("heartwork.sqlite").path))
        case .postgres(let url):
            let name = "heartwork_test_\(UUID().uuidString.prefix(8).lowercased())"
            let admin = try await DatabaseConnection.open(.postgres(url: url), logger: Self.logger)
            do {
                try await admin.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            } catch {
                try? await admin.shutdown()  // a pool dropped without shutdown() traps in AsyncKit's deinit
                throw error
            }
            try await admin.shutdown()
            var components = try require(URLComponents(string: url))
            components.path = "/\(name)"
            let result: T
            do {
                result = try await body(.postgres(url: try require(components.string)))
            } catch {
                try await Self.drop(name, adminURL: url)
                throw error
            }
            try await Self.drop(name, adminURL: url)
            return result
        }
    }

    public func withStore<T: Sendable>(_ body: (HeartworkStore) async throws -> T) async throws -> T {
        try await withFreshLocation { location in
            // Tests run side by side on two cores: a connection may take longer than a server's 10 s.
            let store = try await HeartworkStore.open(location, logger: Self.logger, connectionWaitSeconds: 60)
            do {
                let result = try await body(store)
                try await store.shutdown()
                return result
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }

    /// Drops the test's database; tried three times (under load PostgreSQL can refuse a
    /// DROP for a moment), and a database left behind is logged, not a failed test. The admin
    /// pool is shut down on every path: AsyncKit traps when a pool is dropped without it.
    private static func drop(_ name: String, adminURL: String) async throws {
        for attempt in 1...3 {
            let admin = try await DatabaseConnection.open(.postgres(url: adminURL), logger: logger)
            do {
                try await admin.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
                try await admin.shutdown()
                return
            } catch {
                try? await admin.shutdown()
                if attempt == 3 {
                    logger.warning("could not drop the test database \(name): \(String(reflecting: error))")
                    return
                }
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
    }
}

/// Unwraps like Swift Testing's #require, for helpers outside a test.
func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw CocoaError(.coderValueNotFound, userInfo: [NSDebugDescriptionErrorKey: message]) }
    return value
}
