import Foundation

/// Why an application service refused a request, in terms of the domain: the server maps
/// each kind to an HTTP status at its edge (invalid 422, not found 404, conflict 409,
/// unauthenticated 401, forbidden 403, throttled 429, unavailable 503); the command line and
/// background jobs report the detail as it is.
public struct AppError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A value breaks a rule; `field` names it (`heartRate[3]`, `dateOfBirth`).
        case invalid
        /// It does not exist, or the caller may not know that it does.
        case notFound
        /// It clashes with what is stored (a taken username, a repeated request).
        case conflict
        /// Credentials are missing or wrong.
        case unauthenticated
        /// The caller is known but may not do this.
        case forbidden
        /// Too many attempts; try again after `retryAfterSeconds`.
        case throttled
        /// Something the service needs is down.
        case unavailable
    }

    /// One field's problem, when a form or body has several at once.
    public struct FieldError: Sendable, Hashable {
        public let field: String
        public let detail: String

        public init(field: String, detail: String) {
            self.field = field
            self.detail = detail
        }
    }

    public var kind: Kind
    public var detail: String
    /// The input field at fault, as a path into the request (`track[3].lat`).
    public var field: String?
    public var retryAfterSeconds: Int?
    /// Every field at fault when there are several (the first is also `field` and `detail`),
    /// so a form can show them all at once.
    public var fieldErrors: [FieldError] = []
    /// Where the thing a conflict is about lives (`/api/workouts/…` for a duplicate upload).
    public var location: String?
    /// What a person reads: what happened and what to do, in a sentence. `detail` stays the
    /// precise, technical account (for the API's `detail`, logs and scripts); without an
    /// explicit message, `sentence` makes one of the detail.
    public var message: String?

    public init(_ kind: Kind, _ detail: String, field: String? = nil, retryAfterSeconds: Int? = nil) {
        self.kind = kind
        self.detail = detail
        self.field = field
        self.retryAfterSeconds = retryAfterSeconds
    }

    public static func invalid(_ detail: String, field: String?) -> AppError { AppError(.invalid, detail, field: field) }

    /// Several fields at once (at least one).
    public static func invalid(_ errors: [FieldError]) -> AppError {
        var error = AppError(.invalid, errors.first?.detail ?? "invalid input", field: errors.first?.field)
        error.fieldErrors = errors
        return error
    }

    /// Every field at fault: the list, or the one field.
    public var allFieldErrors: [FieldError] {
        if !fieldErrors.isEmpty { return fieldErrors }
        return field.map { [FieldError(field: $0, detail: detail)] } ?? []
    }

    /// Never "forbidden" for other people's things: the answer must not reveal that they exist.
    public static func notFound(_ what: String) -> AppError { AppError(.notFound, "no \(what) here, or not yours to see") }

    public static func conflict(_ detail: String, field: String? = nil) -> AppError { AppError(.conflict, detail, field: field) }

    public static let notSignedIn = AppError(.unauthenticated, "sign in, or send a valid bearer token")
        .withMessage("Please sign in to continue.")

    public var description: String { field.map { "\($0): \(detail)" } ?? detail }

    /// The same error with a message for people.
    public func withMessage(_ message: String) -> AppError {
        var error = self
        error.message = message
        return error
    }

    /// The message for people: the explicit one, or the detail as a sentence.
    public var sentence: String { message ?? Self.sentence(detail) }

    /// A detail ("must be between 30 and 250") as a sentence ("Must be between 30 and 250.").
    public static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first else { return "Something went wrong. Try again." }
        var sentence = first.uppercased() + trimmed.dropFirst()
        if let last = sentence.last, !".!?)".contains(last) { sentence += "." }
        return sentence
    }
}
