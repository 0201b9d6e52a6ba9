import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import Hummingbird

/// POST /api/auth/register.
struct RegisterRequest {
    static let fields = ["username", "fullName", "email", "password", "timeZone", "goal", "lifestyle"]
    let registration: Registration
    /// Optional, as on the sign-up page (issue 25): the strength goal and the lifestyle, as
    /// sent; `checkedStrength()` reads them. Omitted (or null): the defaults, the lifestyle
    /// then assumed.
    let goal: String?
    let lifestyle: String?

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        registration = Registration(
            username: try body.string("username"), fullName: try body.string("fullName"),
            email: try body.string("email"), password: try body.string("password"), timeZone: try body.optionalString("timeZone"))
        goal = try body.optionalString("goal")
        lifestyle = try body.optionalString("lifestyle")
    }

    /// The goal and lifestyle, checked as `PUT /api/strength/settings` checks them; both
    /// wrong values are named at once, before the account is made.
    func checkedStrength() throws(AppError) -> (goal: StrengthGoal?, lifestyle: Lifestyle?) {
        var errors = [AppError.FieldError]()
        let chosenGoal = goal.flatMap(StrengthGoal.init(rawValue:))
        let chosenLifestyle = lifestyle.flatMap(Lifestyle.init(rawValue:))
        if goal != nil, chosenGoal == nil {
            errors.append(.init(field: "goal", detail: "goal is one of \(StrengthGoal.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        if lifestyle != nil, chosenLifestyle == nil {
            errors.append(.init(field: "lifestyle", detail: "lifestyle is one of \(Lifestyle.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        guard errors.isEmpty else { throw AppError.invalid(errors) }
        return (chosenGoal, chosenLifestyle)
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
