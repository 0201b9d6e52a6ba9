import Foundation
import HeartworkApp
import HeartworkFormats
import Hummingbird

/// POST /api/auth/register.
struct RegisterRequest {
    static let fields = ["username", "fullName", "email", "password", "timeZone"]
    let registration: Registration

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        registration = Registration(
            username: try body.string("username"), fullName: try body.string("fullName"),
            email: try body.string("email"), password: try body.string("password"), timeZone: try body.optionalString("timeZone"))
    }
}

/// POST /api/auth/login.
struct LoginRequest {
    static let fields = ["username", "password"]
    let username: String
    let password: String

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        username = try body.string("username")
        password = try body.string("password")
    }
}

/// POST /api/me/password.
struct ChangePasswordRequest {
    static let fields = ["currentPassword", "newPassword"]
    let currentPassword: String
    let newPassword: String

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        currentPassword = try body.string("currentPassword")
        newPassword = try body.string("newPassword")
    }
}

/// DELETE /api/me: the password again, so a left-open session cannot delete the account.
struct DeleteAccountRequest {
    static let fields = ["password"]
    let password: String

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        password = try body.string("password")
    }
}

struct LoginResponse: ResponseEncodable {
    let token: String
    let expiresAt: Date
    let user: ProfileResponse
}
