import Foundation
import HeartworkCore

/// The text report a Kubios user expects: results in three sections, then windows.
enum HRVTable {
    static func render(_ report: HRVFileReport) -> String {
        var lines = [header(report)]
        lines += report.warnings.map { "Warning: \($0)" }
        if let time = report.timeDomain {
            lines.append("")
            lines.append("Time domain")
            var table = TextTable(header: ["Variable", "Units", "Value"], rightAligned: [2])
            table.rows = [
                ["Mean RR", "ms", f(time.meanNN, 1)], ["SDNN", "ms", f(time.sdnn, 1)],
                ["Mean HR", "bpm", f(time.meanHR, 1)], ["Min HR", "bpm", f(time.minHR, 1)], ["Max HR", "bpm", f(time.maxHR, 1)],
                ["RMSSD", "ms", f(time.rmssd, 1)], ["SDSD", "ms", f(time.sdsd, 1)],
                ["NN50", "beats", "\(time.nn50)"], ["pNN50", "%", f(time.pnn50, 2)], ["pNN20", "%", f(time.pnn20, 2)],
                ["Median RR", "ms", f(time.medianNN, 1)], ["CVNN", "%", f(100 * time.cvnn, 2)],
                ["HRV triangular index", "", f(time.triangularIndex, 2)], ["TINN", "ms", f(time.tinn, 1)],
            ]
            lines.append(table.render())
        }
        if let frequency = report.frequencyDomain {
            lines.append("")
            lines.append("Frequency domain (\(methodDescription(frequency.method)))")
            var table = TextTable(header: ["Band", "Peak (Hz)", "Power (ms²)", "Power (log)", "Power (%)", "Power (n.u.)"], rightAligned: [1, 2, 3, 4, 5])
            let total = frequency.totalPower
            func row(_ name: String, _ peak: Double?, _ power: Double, _ normalized: Double?) -> [String] {
                [
                    name, peak.map { f($0, 4) } ?? "–", f(power, 1), power > 0 ? f(log(power), 3) : "–",
                    total > 0 ? f(100 * power / total, 1) : "–", normalized.map { f($0, 1) } ?? "–",
                ]
            }
            table.rows = [
                row("VLF (0.0033–0.04 Hz)", frequency.vlfPeak, frequency.vlfPower, nil),
                row("LF (0.04–0.15 Hz)", frequency.lfPeak, frequency.lfPower, frequency.lfNormalized),
                row("HF (0.15–0.4 Hz)", frequency.hfPeak, frequency.hfPower, frequency.hfNormalized),
            ]
            lines.append(table.render())
            lines.append("LF/HF ratio  \(frequency.lfHfRatio.map { f($0, 3) } ?? "–")")
            lines.append("Total power  \(f(total, 1)) ms²")
        }
        if let nonlinear = report.nonlinear {
            lines.append("")
            lines.append("Nonlinear")
            var table = TextTable(header: ["Variable", "Units", "Value"], rightAligned: [2])
            table.rows = [
                ["Poincaré SD1", "ms", f(nonlinear.sd1, 1)], ["Poincaré SD2", "ms", f(nonlinear.sd2, 1)],
                ["SD1/SD2", "", nonlinear.sd1sd2Ratio.map { f($0, 3) } ?? "–"],
                ["Ellipse area", "ms²", f(nonlinear.ellipseArea, 0)],
                ["Sample entropy (m = 2, r = 0.2·SDNN)", "", nonlinear.sampleEntropy.map { f($0, 3) } ?? "–"],
                ["DFA α1 (4–16 beats)", "", nonlinear.dfaAlpha1.map { f($0, 3) } ?? "–"],
                ["DFA α2 (16–64 beats)", "", nonlinear.dfaAlpha2.map { f($0, 3) } ?? "–"],
            ]
            lines.append(table.render())
        }
        if let windows = report.windows {
            lines.append("")
            lines.append("Windows")
            var table = TextTable(
                header: ["Start (s)", "Length (s)", "Beats", "Mean RR", "SDNN", "RMSSD", "pNN50", "LF (ms²)", "HF (ms²)", "LF/HF", "SD1", "SampEn", "DFA α1"],
                rightAligned: Set(0..<13))
            for window in windows {
                table.rows.append([
                    f(window.startSeconds, 0), f(window.durationSeconds, 0), "\(window.beats)",
                    window.timeDomain.map { f($0.meanNN, 1) } ?? "–", window.timeDomain.map { f($0.sdnn, 1) } ?? "–",
                    window.timeDomain.map { f($0.rmssd, 1) } ?? "–", window.timeDomain.map { f($0.pnn50, 1) } ?? "–",
                    window.frequencyDomain.map { f($0.lfPower, 0) } ?? "–", window.frequencyDomain.map { f($0.hfPower, 0) } ?? "–",
                    window.frequencyDomain?.lfHfRatio.map { f($0, 2) } ?? "–",
                    window.nonlinear.map { f($0.sd1, 1) } ?? "–",
                    window.nonlinear?.sampleEntropy.map { f($0, 2) } ?? "–",
                    window.nonlinear?.dfaAlpha1.map { f($0, 2) } ?? "–",
                ])
            }
            lines.append(table.render())
        }
        return lines.joined(separator: "\n")
    }

    private static func header(_ report: HRVFileReport) -> String {
        let minutes = Int(report.durationSeconds / 60)
        let seconds = Int(report.durationSeconds.rounded()) % 60
        var text = "\(report.file): \(report.beats) beats, \(minutes) min \(seconds) s"
        if report.correction.method == "none" {
            text += ", no artifact correction"
        } else {
            let counts = report.correction.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += ", \(report.correction.method) correction: \(report.correction.artifacts.count) artifacts (\(f(report.correction.correctedPercent, 1)) %)"
            if !counts.isEmpty { text += " — \(counts)" }
        }
        return text
    }

    private static func methodDescription(_ method: SpectrumMethod) -> String {
        switch method {
        case .welch: "Welch: 4 Hz cubic spline, 256-s Hann segments, 50 % overlap"
        case .lombScargle: "Lomb–Scargle on beat times"
        case .fitlab: "the seed's single periodogram; powers unnormalised"
        }
    }

    static func f(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? String(format: "%.\(decimals)f", value) : "–"
    }
}

/// One CSV row per file, or per window when windows were asked for.
enum HRVCSV {
    static let columns = [
        "file", "window_start_s", "duration_s", "beats", "artifacts_percent",
        "mean_nn_ms", "sdnn_ms", "rmssd_ms", "sdsd_ms", "nn50", "pnn50_percent", "pnn20_percent",
        "mean_hr_bpm", "median_nn_ms", "cvnn", "hrv_triangular_index", "tinn_ms",
        "vlf_ms2", "lf_ms2", "hf_ms2", "total_power_ms2", "lf_hf", "lf_nu", "hf_nu", "lf_peak_hz", "hf_peak_hz",
        "sd1_ms", "sd2_ms", "sd1_sd2", "sample_entropy", "dfa_alpha1", "dfa_alpha2",
    ]

    static func render(_ reports: [HRVFileReport]) -> String {
        var lines = [columns.joined(separator: ",")]
        for report in reports {
            if let windows = report.windows {
                for window in windows {
                    lines.append(
                        row(
                            file: report.file, start: window.startSeconds, duration: window.durationSeconds, beats: window.beats,
                            artifacts: report.correction.correctedPercent,
                            time: window.timeDomain, frequency: window.frequencyDomain, nonlinear: window.nonlinear))
                }
            } else {
                lines.append(
                    row(
                        file: report.file, start: nil, duration: report.durationSeconds, beats: report.correctedBeats,
                        artifacts: report.correction.correctedPercent,
                        time: report.timeDomain, frequency: report.frequencyDomain, nonlinear: report.nonlinear))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(
        file: String, start: Double?, duration: Double, beats: Int, artifacts: Double,
        time: TimeDomainIndices?, frequency: FrequencyDomainIndices?, nonlinear: NonlinearIndices?
    ) -> String {
        func v(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "" }
            return String(value)
        }
        let fields: [String] = [
            quoted(file), v(start), v(duration), "\(beats)", v(artifacts),
            v(time?.meanNN), v(time?.sdnn), v(time?.rmssd), v(time?.sdsd), time.map { "\($0.nn50)" } ?? "",
            v(time?.pnn50), v(time?.pnn20), v(time?.meanHR), v(time?.medianNN), v(time?.cvnn),
            v(time?.triangularIndex), v(time?.tinn),
            v(frequency?.vlfPower), v(frequency?.lfPower), v(frequency?.hfPower), v(frequency?.totalPower),
            v(frequency?.lfHfRatio), v(frequency?.lfNormalized), v(frequency?.hfNormalized), v(frequency?.lfPeak), v(frequency?.hfPeak),
            v(nonlinear?.sd1), v(nonlinear?.sd2), v(nonlinear?.sd1sd2Ratio), v(nonlinear?.sampleEntropy),
            v(nonlinear?.dfaAlpha1), v(nonlinear?.dfaAlpha2),
        ]
        return fields.joined(separator: ",")
    }

    private static func quoted(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
