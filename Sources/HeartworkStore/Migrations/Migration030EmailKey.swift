extension Migration {
    /// Issue 25, sign-in by e-mail (iHeart Monitor's login takes the e-mail): each user's
    /// e-mail in the form it is looked up by (`EmailKey`: ASCII letters folded to lower case,
    /// everything else as written), indexed but not unique — accounts made before may share
    /// an address, and sign-in by an address that several accounts share signs in none of them
    /// (they use their usernames). Filled here from the stored addresses: SQLite's `lower` folds
    /// only ASCII letters, and so does PostgreSQL's under the "C" collation.
    static let emailKey = Migration(version: 30, name: "e-mail lookup key") { engine in
        [
            "ALTER TABLE users ADD COLUMN email_key TEXT",
            engine == .postgres
                ? #"UPDATE users SET email_key = lower(email COLLATE "C")"#
                : "UPDATE users SET email_key = lower(email)",
            "CREATE INDEX users_email_key ON users (email_key)",
        ]
    }
}
