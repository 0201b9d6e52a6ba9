import NIOCore
import Synchronization

/// Open connections by remote address (issue 40: 1,050 sockets from one address, each sending
/// a byte now and then, filled the 1,000-connection limit and nobody else got in). A new
/// connection from an address that has `limit` open already is closed at once, before a byte
/// of it is read; everyone else's connections are untouched. Connections without an IP address
/// (Unix sockets, tests' embedded channels) are not counted.
final class AddressConnections: Sendable {
    let limit: Int
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts a new connection; false (and nothing counted) when its address is at the limit.
    func admit(_ address: String) -> Bool {
        open.withLock { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    func release(_ address: String) {
        open.withLock { open in
            guard let count = open[address] else { return }
            if count <= 1 { open[address] = nil } else { open[address] = count - 1 }
        }
    }

    /// Open connections from `address` (for tests).
    func count(_ address: String) -> Int { open.withLock { $0[address, default: 0] } }

    /// The error a refused connection's setup fails with (the connection is closed).
    struct TooMany: Error, CustomStringConvertible {
        let address: String
        let limit: Int
        var description: String { "\(address) has \(limit) connections open already" }
    }
}
