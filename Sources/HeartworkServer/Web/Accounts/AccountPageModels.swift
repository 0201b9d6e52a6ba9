/// signup.mustache: what was typed, when the form comes back.
struct SignupPage: Sendable {
    var username: String?
    var fullName: String?
    var email: String?
}

/// settings.mustache. `maxSharedWorkouts` is text: the saved number, or what was typed.
struct SettingsPage: Sendable {
    var autoShareWorkouts: Bool
    var maxSharedWorkouts: String
    /// The password and delete-account forms' errors, each shown in its own section.
    var password: FormErrors?
    var deletion: FormErrors?
}
