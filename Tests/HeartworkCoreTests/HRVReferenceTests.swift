import Foundation
import HeartworkCore
import Testing

/// Golden values from Tests/Reference/hrv_reference.py (numpy/scipy, cross-checked against
/// NeuroKit2 for the time domain and sample entropy); see the JSON's "versions".
@Suite("HRV indices against the numpy/scipy reference")
struct HRVReferenceTests {
    struct Reference: Decodable {
        struct Series: Decodable {
            let rr: [Double]
            let timeDomain: [String: Double]
            let welch: [String: Double?]
            let lomb: [String: Double?]
            let fitlab: [String: Double]
            let nonlinear: [String: Double?]
        }
        let series: [String: Series]
    }

    static let reference: Reference = {
        guard let url = Bundle.module.url(forResource: "hrv-reference", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url),
            let decoded = try? JSONDecoder().decode(Reference.self, from: data)
        else { fatalError("Tests/HeartworkCoreTests/Resources/hrv-reference.json is missing or unreadable") }
        return decoded
    }()

    static let names = ["rest-5min", "short-2min", "exercise-10min", "rest-1h"]

    private func expectClose(_ actual: Double?, _ expected: Double?, relative: Double, _ label: String) {
        guard let expected else {
            #expect(actual == nil, "\(label): expected no value")
            return
        }
        guard let actual else {
            Issue.record("\(label): no value, expected \(expected)")
            return
        }
        let error = abs(actual - expected) / max(abs(expected), 1e-300)
        #expect(error <= relative, "\(label): \(actual) vs reference \(expected) (relative error \(error))")
    }

    @Test(arguments: names)
    func timeDomainToOneInABillion(name: String) throws {
        let series = try #require(Self.reference.series[name])
        let indices = try #require(TimeDomainIndices(rrMilliseconds: series.rr))
        let actual: [String: Double] = [
            "meanNN": indices.meanNN, "sdnn": indices.sdnn, "rmssd": indices.rmssd, "sdsd": indices.sdsd,
            "nn50": Double(indices.nn50), "pnn50": indices.pnn50, "nn20": Double(indices.nn20), "pnn20": indices.pnn20,
            "meanHR": indices.meanHR, "minHR": indices.minHR, "maxHR": indices.maxHR, "medianNN": indices.medianNN,
            "cvnn": indices.cvnn, "triangularIndex": indices.triangularIndex, "tinn": indices.tinn,
        ]
        for (key, expected) in series.timeDomain {
            expectClose(actual[key], expected, relative: 1e-9, "\(name) \(key)")
        }
    }

    @Test(arguments: names)
    func nonlinearIndices(name: String) throws {
        let series = try #require(Self.reference.series[name])
        let indices = try #require(NonlinearIndices(rrMilliseconds: series.rr))
        expectClose(indices.sd1, series.nonlinear["sd1"] ?? nil, relative: 1e-9, "\(name) SD1")
        expectClose(indices.sd2, series.nonlinear["sd2"] ?? nil, relative: 1e-9, "\(name) SD2")
        expectClose(indices.ellipseArea, series.nonlinear["ellipseArea"] ?? nil, relative: 1e-9, "\(name) ellipse")
        expectClose(indices.sampleEntropy, series.nonlinear["sampleEntropy"] ?? nil, relative: 1e-9, "\(name) SampEn")
        expectClose(indices.dfaAlpha1, series.nonlinear["dfaAlpha1"] ?? nil, relative: 1e-6, "\(name) DFA α1")
        expectClose(indices.dfaAlpha2, series.nonlinear["dfaAlpha2"] ?? nil, relative: 1e-6, "\(name) DFA α2")
    }

    @Test(arguments: names)
    func welchSpectrumToHalfAPercent(name: String) throws {
        let series = try #require(Self.reference.series[name])
        let indices = try #require(FrequencyDomainAnalysis.indices(series.rr, method: .welch))
        compare(indices, series.welch, name: "\(name) welch")
    }

    @Test(arguments: names)
    func lombScargleToHalfAPercent(name: String) throws {
        let series = try #require(Self.reference.series[name])
        let indices = try #require(FrequencyDomainAnalysis.indices(series.rr, method: .lombScargle))
        compare(indices, series.lomb, name: "\(name) lomb")
    }

    @Test(arguments: names)
    func seedLFHFToHalfAPercent(name: String) throws {
        let series = try #require(Self.reference.series[name])
        let indices = try #require(FrequencyDomainAnalysis.indices(series.rr, method: .fitlab))
        expectClose(indices.lfPower, series.fitlab["lfPower"], relative: 0.005, "\(name) fitlab LF")
        expectClose(indices.hfPower, series.fitlab["hfPower"], relative: 0.005, "\(name) fitlab HF")
        expectClose(indices.lfHfRatio, series.fitlab["lfHfRatio"], relative: 0.005, "\(name) fitlab LF/HF")
    }

    private func compare(_ indices: FrequencyDomainIndices, _ expected: [String: Double?], name: String) {
        let actual: [String: Double?] = [
            "vlfPower": indices.vlfPower, "lfPower": indices.lfPower, "hfPower": indices.hfPower,
            "totalPower": indices.totalPower, "lfHfRatio": indices.lfHfRatio,
            "lfNormalized": indices.lfNormalized, "hfNormalized": indices.hfNormalized,
            "vlfPeak": indices.vlfPeak, "lfPeak": indices.lfPeak, "hfPeak": indices.hfPeak,
        ]
        for (key, value) in expected {
            expectClose(actual[key] ?? nil, value, relative: 0.005, "\(name) \(key)")
        }
    }
}
