import Foundation
import HeartworkApp
import Hummingbird

/// Where to go after signing in: a path on this site; anything else goes to the workouts.
enum SafeRedirect {
    static func next(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return "/workouts" }
        return next
    }
}
