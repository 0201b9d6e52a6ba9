/// A team session's context (FitLabTeam F8, the "Settings" popover's four lines): how long
/// before or after which situation, and in what position, the session was recorded. The values
/// are the seed's own labels, verbatim (seed-001 digest, F8), and they are what is stored, sent
/// and filtered on. Each of the four may be left unset (sessions from before issue 25, API
/// clients that do not send them).
public struct SessionContext: Sendable, Hashable {
    /// "Time" (`tempsMoment`): how long before or after the situation.
    public enum Time: String, Sendable, Hashable, CaseIterable {
        case fiveToFifteenMinutes = "5-15 min"
        case thirtyMinutes = "30 min"
        case twoHours = "2h"
        case threeHours = "3h"
        case fourToSixHours = "4-6h"
        case sixToEightHours = "6-8h"
        case tenToTwelveHours = "10-12h"
        case twelveToEighteenHours = "12-18h"
        case eighteenToTwentyFourHours = "18-24h"
        case oneDay = "1d"
        case twoDays = "2d"
        /// The seed's "+2", after "1d" and "2d": more than two days (our reading; the seed does
        /// not spell it out).
        case moreThanTwoDays = "+2"

        /// In words, for pages.
        public var label: String {
            switch self {
            case .fiveToFifteenMinutes: "5–15 min"
            case .fourToSixHours: "4–6 h"
            case .sixToEightHours: "6–8 h"
            case .tenToTwelveHours: "10–12 h"
            case .twelveToEighteenHours: "12–18 h"
            case .eighteenToTwentyFourHours: "18–24 h"
            case .twoHours: "2 h"
            case .threeHours: "3 h"
            case .oneDay: "1 day"
            case .twoDays: "2 days"
            case .moreThanTwoDays: "more than 2 days"
            case .thirtyMinutes: "30 min"
            }
        }
    }

    /// "Moment" (`moment`): before or after the situation.
    public enum Moment: String, Sendable, Hashable, CaseIterable {
        case after = "After"
        case before = "Before"
    }

    /// "Situation" (`situacio`).
    public enum Situation: String, Sendable, Hashable, CaseIterable {
        case training = "Training"
        case championship = "Championship"
        case injury = "Injury"
        case exam = "Exam"
        case business = "Business"
        case concert = "Concert"
        case movieTheatre = "Movie/Theatre"
        case other = "Other"
    }

    /// "State" (`posicio`): the players' position during the session.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case seated = "Seated"
        case lying = "Lying"
        case moving = "Moving"
    }

    public var time: Time?
    public var moment: Moment?
    public var situation: Situation?
    public var state: State?

    public init(time: Time? = nil, moment: Moment? = nil, situation: Situation? = nil, state: State? = nil) {
        self.time = time
        self.moment = moment
        self.situation = situation
        self.state = state
    }

    public var isEmpty: Bool { time == nil && moment == nil && situation == nil && state == nil }

    /// The review's line, in the seed's order ("Minutes; Session before or after a certain
    /// situation; Situation; State of the session"): "2 h · After · Training · Seated". Nil when
    /// nothing is set.
    public var summary: String? {
        let parts = [time?.label, moment?.rawValue, situation?.rawValue, state?.rawValue].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Whether a session with this context passes `filter`: every setting the filter names must
    /// be equal (a session without that setting does not pass).
    public func matches(_ filter: SessionContext) -> Bool {
        (filter.time == nil || filter.time == time) && (filter.moment == nil || filter.moment == moment)
            && (filter.situation == nil || filter.situation == situation) && (filter.state == nil || filter.state == state)
    }
}
