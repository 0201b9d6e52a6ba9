extension Migration {
    /// Where a user lives, as an IANA time-zone name (`Europe/Vienna`): pages show times and cut
    /// days there. Null until the user (or their browser at sign-up) says.
    static let timeZone = Migration(version: 3, name: "time zone") { _ in
        ["ALTER TABLE users ADD COLUMN time_zone TEXT"]
    }
}
