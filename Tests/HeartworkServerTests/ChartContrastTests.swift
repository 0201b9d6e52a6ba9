import Foundation
import HTTPTypes
import HeartworkCharts
import HeartworkCore
import Testing

/// Every word drawn in a chart — axis ticks, zone and threshold labels, legends, warnings,
/// route marks — reaches WCAG 2.1's 4.5:1 against white and against the route's ground
/// (axe-core does not look inside SVG text, so this does). Formula: WCAG 2.1, "contrast ratio"
/// and "relative luminance".
@Suite("Chart text contrast")
struct ChartContrastTests {
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.dropFirst())
        let channels = stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0...$0 + 1]), radix: 16) ?? 0) / 255 }
        let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func textFills(_ html: String) throws -> [String] {
        let pattern = try Regex(#"<text [^>]*fill="(#[0-9a-fA-F]{6})""#)
        return html.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test func goldenRatiosOfTheFormula() {
        // WebAIM's contrast checker: #767676 on white is 4.54:1; black on white 21:1.
        #expect(abs(Self.contrast("#767676", "#ffffff") - 4.54) < 0.01)
        #expect(abs(Self.contrast("#000000", "#ffffff") - 21) < 0.001)
    }

    @Test func everyChartWordOnTheWorkoutAndProfilePagesIsReadable() async throws {
        try await ServerHarness.run { harness in
            let (_, token) = try await harness.signUp("contrast")
            try await harness.completeProfile(token)
            let id = try await harness.upload(token, ServerHarness.workoutJSON(seconds: 1800))
            let session = try await harness.webSession("contrast")
            var fills = [String]()
            for path in ["/workouts/\(id)", "/profile", "/"] {
                let page = try await harness.request(.get, path, headers: [.cookie: session.cookie])
                fills += try Self.textFills(page.text)
            }
            #expect(fills.count > 40, "charts drew \(fills.count) words")
            for fill in Set(fills) {
                #expect(Self.contrast(fill, "#ffffff") >= 4.5, "\(fill) on white")
                #expect(Self.contrast(fill, "#eef2f6") >= 4.5, "\(fill) on the route's ground")
            }
        }
    }

    @Test func theHRVReportsWarningsAreReadable() throws {
        var random = SplitMix64(seed: 5)
        let clean = SyntheticRRModel().generate(beats: 300, seed: 5)
        let (rr, _) = ArtifactInjector.inject(into: clean, everyBeats: 6, using: &random)
        let result = try HRVAnalysis.analyze(rr)
        let svg = HRVReportChart.svg(title: "Many artifacts", result: result)
        #expect(svg.contains("⚠"), "a recording this noisy carries a warning")
        for fill in Set(try Self.textFills(svg)) {
            #expect(Self.contrast(fill, "#ffffff") >= 4.5, "\(fill) on white")
        }
    }
}
