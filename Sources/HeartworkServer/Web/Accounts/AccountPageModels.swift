/// signup.mustache: what was typed, when the form comes back. Steps 2 and 3 are Pocket PT's
/// sign-up (seed-002 §2.1): goal and lifestyle as boxes, and the motivation feedback opt-in.
struct SignupPage: Sendable {
    var username: String?
    var fullName: String?
    var email: String?
    var goals: [StrengthChoice] = StrengthChoice.goals(selected: nil)
    var lifestyles: [StrengthChoice] = StrengthChoice.lifestyles(selected: nil)
    var feedback: Bool = false
    var webhookUrl: String?
}

/// settings.mustache. `maxSharedWorkouts` is text: the saved number, or what was typed.
struct SettingsPage: Sendable {
    var autoShareWorkouts: Bool
    var maxSharedWorkouts: String
    /// The password and delete-account forms' errors, each shown in its own section.
    var password: FormErrors?
    var deletion: FormErrors?
    /// Phone sync: the tokens, the address to paste into the app, a token just created.
    var sync = SyncSettings()
}

/// settings.mustache's "Phone sync" section.
struct SyncSettings: Sendable {
    struct Token: Sendable {
        var id: String
        var name: String
        var created: String
        var lastUsed: String
    }

    var tokens: [Token] = [] {
        didSet { hasTokens = !tokens.isEmpty }
    }
    /// Stored, not computed: the templates see stored properties only.
    var hasTokens = false
    /// The address Health Auto Export posts to.
    var url = "/api/sync/health-auto-export"
    /// The token just created (shown once) and its name.
    var newToken: String?
    var newTokenName: String?
    /// What was typed, and why it was refused.
    var name = ""
    var errors: FormErrors?
}
