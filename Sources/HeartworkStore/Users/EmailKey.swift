/// An e-mail address in the form accounts are looked up by: the letters A–Z folded to lower
/// case, every other character as written (so `Ana@Example.org` and `ana@example.ORG` are one
/// address). The same fold as SQLite's `lower` and PostgreSQL's `lower` under the "C"
/// collation, which filled the key of accounts made before it existed (migration 30).
public enum EmailKey {
    public static func of(_ email: String) -> String {
        String(
            String.UnicodeScalarView(
                email.unicodeScalars.map { scalar in
                    ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
                }))
    }
}
