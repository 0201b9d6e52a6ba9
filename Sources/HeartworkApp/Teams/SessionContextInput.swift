import HeartworkCore

/// A session context as typed (a form, a body, a query): each setting as text, nil or empty for
/// unset. The one reading of it for the API, the pages and the session list's filter; every
/// mistake at once, each naming its field (`context.time`, …) and the values it may take.
public struct SessionContextInput: Sendable {
    public var time: String?
    public var moment: String?
    public var situation: String?
    public var state: String?

    public init(time: String? = nil, moment: String? = nil, situation: String? = nil, state: String? = nil) {
        self.time = time
        self.moment = moment
        self.situation = situation
        self.state = state
    }

    /// The settings of `context`, as text (to change some and keep the rest).
    public init(_ context: SessionContext) {
        self.init(time: context.time?.rawValue, moment: context.moment?.rawValue, situation: context.situation?.rawValue, state: context.state?.rawValue)
    }

    /// The context, or `AppError.invalid` with one field error per setting that is not one of
    /// the seed's values.
    public func context(fieldPrefix: String = "context.") throws(AppError) -> SessionContext {
        var validation = Validation()
        func read<T: RawRepresentable & CaseIterable>(_ text: String?, _ type: T.Type, _ name: String, _ what: String) -> T? where T.RawValue == String {
            guard let text, !text.isEmpty else { return nil }
            return validation.check { () throws(AppError) in
                guard let value = T(rawValue: text) else {
                    throw AppError.invalid(
                        "'\(text)' is not a \(what): it is one of \(T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))", field: fieldPrefix + name)
                }
                return value
            }
        }
        let context = SessionContext(
            time: read(time, SessionContext.Time.self, "time", "session time"),
            moment: read(moment, SessionContext.Moment.self, "moment", "moment"),
            situation: read(situation, SessionContext.Situation.self, "situation", "situation"),
            state: read(state, SessionContext.State.self, "state", "state"))
        try validation.finish()
        return context
    }
}
