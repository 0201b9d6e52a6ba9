import Foundation
import HeartworkStore
import Hummingbird

/// The server-rendered web app. Pages need a signed-in session cookie (a 401 shows the
/// sign-in form); forms post back with the session's CSRF token and redirect (303).
struct WebRoutes {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {
        StaticFiles.register(on: router)
        WebAccountPages(services: services).register(on: router)
        WebProfilePages(services: services).register(on: router)
        WebFriendPages(services: services).register(on: router)
        WebWorkoutPages(services: services).register(on: router)
    }
}

/// /static/app.css and /static/app.js from the bundle, cached by the browser for an hour.
enum StaticFiles {
    static let files: [String: (contentType: String, data: Data)] = {
        var files = [String: (String, Data)]()
        for (name, type) in [("app.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8")] {
            let parts = name.split(separator: ".")
            if let url = Bundle.module.url(forResource: String(parts[0]), withExtension: String(parts[1]), subdirectory: "Resources/static"),
               let data = try? Data(contentsOf: url) {
                files[name] = (type, data)
            }
        }
        return files
    }()

    static func register(on router: Router<AppRequestContext>) {
        router.get("static/:file") { _, context -> Response in
            let name = try context.parameters.require("file")
            guard let file = files[name] else { throw APIError.notFound("file") }
            var headers = HTTPFields()
            headers[.contentType] = file.contentType
            headers[.cacheControl] = "public, max-age=3600"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: file.data)))
        }
    }
}

/// Helpers the page handlers share.
extension AppServices {
    /// A relative path to go back to after signing in; anything else goes home.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return "/workouts" }
        return next
    }

    func sessionCookie(_ token: String, maxAge: Int) -> Cookie {
        Cookie(name: AuthenticationMiddleware.cookieName, value: token, maxAge: maxAge, path: "/",
               secure: configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }
}

/// Forms without a session (sign-in, sign-up) cannot carry a CSRF token; they must at
/// least come from this site when the browser says where they come from.
func requireSameOrigin(_ request: Request) throws {
    guard let origin = request.headers[.origin], origin != "null" else { return }
    let host = request.head.authority ?? ""
    guard let url = URL(string: origin), let originHost = url.host else { throw APIError.forbiddenCSRF }
    let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
    guard originAuthority == host || originHost == host else { throw APIError.forbiddenCSRF }
}
