import Logging
import Testing

@testable import HeartworkServer

/// Issue 41: the server's log keeps error level for the server's errors. HummingbirdWebSocket's
/// "Error handling upgrade result" — a connection that ended before its first request was
/// handled, the client's doing — is debug; everything else keeps its level.
@Suite("Log levels")
struct LogLevelTests {
    @Test func aConnectionEndedByItsClientIsDebugNotError() {
        #expect(JSONLogHandler.level(of: "Error handling upgrade result", .error) == .debug)
        #expect(JSONLogHandler.level(of: "Error handling upgrade result", .trace) == .trace, "never raised")
        #expect(JSONLogHandler.level(of: "the database cannot be reached", .error) == .error)
        #expect(JSONLogHandler.level(of: "Error handling upgrade result (other)", .error) == .error, "only that message")
    }
}
