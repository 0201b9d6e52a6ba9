extension Migration {
    /// Issue 25, Pocket PT: whether the user picked their lifestyle (at sign-up or in
    /// settings), so nutrition never uses the default one without saying so. Rows that hold
    /// another lifestyle than the default (`low-active`) were picked; the others are not known
    /// to be and are shown as assumed until the user sets theirs.
    static let lifestyleChosen = Migration(version: 29, name: "strength lifestyle chosen") { _ in
        [
            "ALTER TABLE strength_settings ADD COLUMN lifestyle_chosen INTEGER NOT NULL DEFAULT 0",
            "UPDATE strength_settings SET lifestyle_chosen = 1 WHERE lifestyle <> 'low-active'",
        ]
    }
}
