import Testing

@testable import HeartworkCore
@testable import HeartworkServer

/// Issue 41: a brand-new user was told "a higher risk of overdoing it" after one run (a load
/// ratio of 5.38 with no history). The ratio is judged in words from 4 weeks of load on.
@Suite("Training load in words")
struct LoadAdviceTests {
    static func load(ratio: Double?, historyDays: Int?) -> DailySummary.Workload {
        DailySummary.Workload(trimp: 90, acute: 22, chronic: 4, balance: -18, ratio: ratio, historyDays: historyDays)
    }

    @Test func theRatioIsJudgedOnlyWithFourWeeksBehindIt() {
        let first = WebHealthPages.loadAdvice(Self.load(ratio: 5.38, historyDays: 0))
        #expect(first.contains("still being learnt") && first.contains("your first was today") && !first.contains("overdoing"), "\(first)")
        #expect(WebHealthPages.loadAdvice(Self.load(ratio: 5.38, historyDays: 12)).contains("your first was 12 days ago"))
        #expect(WebHealthPages.loadAdvice(Self.load(ratio: 1.8, historyDays: 28)).contains("a higher risk of overdoing it"))
        #expect(WebHealthPages.loadAdvice(Self.load(ratio: 1.1, historyDays: 90)).contains("in line with what you are used to"))
        #expect(WebHealthPages.loadAdvice(Self.load(ratio: nil, historyDays: 0)).hasPrefix("No training load yet"))
    }
}
