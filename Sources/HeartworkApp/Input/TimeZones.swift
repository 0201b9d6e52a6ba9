import Foundation

/// IANA time-zone names (`Europe/Vienna`), as browsers report them.
public enum TimeZones {
    static func checked(_ name: String, field: String) throws(AppError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64, TimeZone(identifier: trimmed) != nil else {
            throw AppError.invalid("'\(trimmed.prefix(64))' is not a time zone such as Europe/Vienna", field: field)
        }
        return trimmed
    }

    /// The user's zone, or UTC.
    public static func zone(_ name: String?) -> TimeZone {
        name.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }
}
