import Foundation
import HeartworkStore

/// How failed sign-ins slow down the next ones, without becoming a way to lock someone out.
///
/// Failures are counted per account *at an address*, and per address: five wrong passwords
/// for an account from one address make that address wait 30 s before the next try, and
/// every further failure doubles the wait (30 s, 1 min, 2 min … at most 15 min). An address
/// with 30 failures across accounts within the hour waits 15 minutes. Nothing counts against
/// an address that has not failed, so the right password from elsewhere always works; a
/// success forgives that account's failures at that address. Failures older than an hour
/// no longer count.
struct SignInThrottle: Sendable {
    let window: TimeInterval = 3600
    let freeFailuresPerAccount = 5
    let firstDelay: TimeInterval = 30
    let longestDelay: TimeInterval = 15 * 60
    let failuresPerAddress = 30

    struct Scopes {
        let pair: String
        let address: String
    }

    struct Wait {
        let seconds: Int
        let reason: String
    }

    func scopes(account: String, address: String) -> Scopes {
        Scopes(pair: "pair:\(account.lowercased())|\(address)", address: "address:\(address)")
    }

    /// How long this attempt must still wait, or nil to go ahead.
    func wait(_ histories: [String: ThrottleHistory], scopes: Scopes, now: Date) -> Wait? {
        if let pair = histories[scopes.pair], pair.failures >= freeFailuresPerAccount, let latest = pair.latest {
            let doublings = min(pair.failures - freeFailuresPerAccount, 10)
            let delay = min(firstDelay * Double(1 << doublings), longestDelay)
            let remaining = latest.addingTimeInterval(delay).timeIntervalSince(now)
            if remaining > 0 {
                return Wait(seconds: Int(remaining.rounded(.up)), reason: "too many failed sign-ins for this account from this address")
            }
        }
        if let address = histories[scopes.address], address.failures >= failuresPerAddress, let latest = address.latest {
            let remaining = latest.addingTimeInterval(longestDelay).timeIntervalSince(now)
            if remaining > 0 {
                return Wait(seconds: Int(remaining.rounded(.up)), reason: "too many failed sign-ins from this address")
            }
        }
        return nil
    }
}
