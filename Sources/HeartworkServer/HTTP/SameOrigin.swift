import Foundation
import HeartworkApp
import Hummingbird

/// Requests a browser may send from another site without a CSRF token (sign-in and sign-up
/// forms, cookie-authenticated WebSocket upgrades) must come from this site when the browser
/// says where they come from (the Origin header; clients without one are not browsers).
enum SameOrigin {
    /// A form without a CSRF token (sign-in, sign-up): a missing Origin is a client that is
    /// not a browser; the opaque `null` is what browsers send after a cross-site redirect or
    /// from a sandboxed frame, so it is refused like another site's (issue 40: a victim could
    /// be signed in to an attacker's account).
    static func require(_ request: Request) throws {
        guard let origin = request.headers[.origin] else { return }
        guard origin != "null" else { throw Problem.forbiddenOrigin }
        do { try check(origin, request) } catch { throw Problem.forbiddenOrigin }
    }

    /// A WebSocket upgrade that comes with the session cookie: browsers always say where it
    /// comes from, so a missing Origin or the opaque `null` (a sandboxed frame, a `data:` page)
    /// is refused like another site's.
    static func requireForCookieUpgrade(_ request: Request) throws {
        guard let origin = request.headers[.origin], origin != "null" else { throw Problem.forbiddenCSRF }
        try check(origin, request)
    }

    private static func check(_ origin: String, _ request: Request) throws {
        let host = request.head.authority ?? ""
        guard let url = URL(string: origin), let originHost = url.host else { throw Problem.forbiddenCSRF }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        guard originAuthority == host || originHost == host else { throw Problem.forbiddenCSRF }
    }
}
