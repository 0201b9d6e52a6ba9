import Foundation
import HeartworkApp
import HummingbirdWebSocket
import NIOWebSocket

/// Every live socket runs through here: it is registered with the credential it came with (a
/// session or a gateway), and when that credential is withdrawn — a gateway revoked, a
/// session signed out, a password changed, an account deleted, on any instance — the socket's
/// work is cancelled and the socket closes with 1008 and a reason (docs/PROTOCOL.md §5).
enum RevocableSocket {
    static func run(
        _ services: HeartworkServices, userID: String, credential: LiveConnections.Credential, outbound: WebSocketOutboundWriter,
        _ work: @escaping @Sendable () async throws -> Void
    ) async throws {
        let connections = services.bus.connections
        let connection = connections.open(userID: userID, credential: credential)
        defer { connections.close(connection) }
        let revoked = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await work()
                return false
            }
            group.addTask {
                var signals = connection.revoked.makeAsyncIterator()
                return await signals.next() != nil
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        if revoked {
            let reason =
                switch credential {
                case .gateway: "the gateway was revoked"
                case .session: "signed out: sign in again"
                }
            try? await outbound.close(.policyViolation, reason: reason)
        }
    }
}
