import Foundation
import HeartworkStore

/// A successful sign-in: the raw token (shown once, never stored) and its session.
public struct SignIn: Sendable {
    public let token: String
    public let session: SessionRecord
    public let user: UserRecord
}

/// What someone signing in typed in the first field: a username or an e-mail (iHeart
/// Monitor's login takes the e-mail, HeartMate's the username). Usernames have no "@"
/// (`Registration.checkedUsername`), so one with an "@" is an e-mail, matched up to the
/// case of A–Z (`EmailKey`).
enum SignInName: Equatable {
    case username(String)
    case email(String)

    /// The one answer to every failure: it does not say which of the two was wrong.
    static let failure = "wrong username, e-mail or password"

    init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        self = trimmed.contains("@") ? .email(trimmed) : .username(trimmed)
    }

    /// Accounts whose password a sign-in checks: one for a username; for an e-mail the two
    /// oldest accounts with it (a third, newer account with the same address signs in by its
    /// username).
    var candidatesChecked: Int {
        switch self {
        case .username: 1
        case .email: 2
        }
    }

    /// What the throttle counts failures against (with the address): the name as typed, folded
    /// as it is looked up. Not the account it finds — that would let the throttle tell which
    /// username an e-mail belongs to; the per-address limit bounds guesses at both.
    var throttleKey: String {
        switch self {
        case .username(let username): username.lowercased()
        case .email(let email): "email:" + EmailKey.of(email)
        }
    }
}
