import HummingbirdBcrypt
import NIOPosix

/// bcrypt, off the event loops: hashing at cost 12 takes a noticeable fraction of a second.
public struct PasswordHasher: Sendable {
    public let cost: Int

    public init(cost: Int) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        let cost = UInt8(clamping: cost)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
