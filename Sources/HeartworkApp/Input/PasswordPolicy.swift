/// Passwords: 8 characters or more, at most 72 bytes (bcrypt reads 72; longer would be
/// silently truncated).
enum PasswordPolicy {
    static func check(_ password: String, field: String) throws(AppError) {
        guard password.count >= 8 else { throw AppError.invalid("a password needs at least 8 characters", field: field) }
        guard password.utf8.count <= 72 else { throw AppError.invalid("a password may have at most 72 bytes", field: field) }
    }
}
