/// Checks several fields and reports every mistake at once (a form shows each next to its
/// field), instead of stopping at the first.
struct Validation {
    private(set) var errors: [AppError.FieldError] = []

    /// The value `check` gives, or nil after noting its error.
    mutating func check<T>(_ check: () throws(AppError) -> T) -> T? {
        do {
            return try check()
        } catch {
            errors.append(contentsOf: error.allFieldErrors.isEmpty ? [.init(field: "body", detail: error.detail)] : error.allFieldErrors)
            return nil
        }
    }

    func finish() throws(AppError) {
        if !errors.isEmpty { throw AppError.invalid(errors) }
    }
}
