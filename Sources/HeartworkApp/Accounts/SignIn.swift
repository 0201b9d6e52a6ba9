import Foundation
import HeartworkStore

/// A successful sign-in: the raw token (shown once, never stored) and its session.
public struct SignIn: Sendable {
    public let token: String
    public let session: SessionRecord
    public let user: UserRecord
}
