import HTTPTypes
import Hummingbird

/// The web app's session cookie: HttpOnly, SameSite=Lax, Secure behind HTTPS; its changes
/// need the session's CSRF token.
enum SessionCookie {
    static let name = "hw_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    static func make(_ token: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(name: name, value: token, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
