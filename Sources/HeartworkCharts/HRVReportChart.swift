import Foundation
import HeartworkCore

/// The one-page HRV report: tachogram with corrected beats marked, Poincaré plot with the
/// SD1/SD2 ellipse, power spectrum with the VLF/LF/HF bands shaded, and the key numbers.
public enum HRVReportChart {
    public static let width = 1000.0
    public static let height = 1020.0

    public static func svg(title: String, result: HRVResult) -> String {
        var svg = SVGDocument(width: width, height: height, title: "HRV report: \(title)")
        let corrected = result.correction.corrected
        let indices = result.indices

        svg.text(title, x: 24, y: 36, size: 22, weight: "700")
        svg.text(summaryLine(result), x: 24, y: 60, size: 13, fill: Palette.mutedText)
        var warningY = 80.0
        for warning in result.warnings.prefix(2) {
            svg.text("⚠ " + warning, x: 24, y: warningY, size: 12, fill: Palette.warningText)
            warningY += 16
        }

        tachogram(corrected, marked: result.correction.correctedIndices)
            .draw(in: Frame(x: 16, y: 110, width: width - 32, height: 300), on: &svg)
        poincare(corrected, nonlinear: indices.nonlinear)
            .draw(in: Frame(x: 16, y: 430, width: 440, height: 420), on: &svg)
        spectrum(result.spectrum, frequency: indices.frequencyDomain)
            .draw(in: Frame(x: 470, y: 430, width: width - 486, height: 420), on: &svg)
        keyNumbers(indices, on: &svg, y: 880)
        return svg.rendered
    }

    static func summaryLine(_ result: HRVResult) -> String {
        let correction = result.correction
        let minutes = Int(result.indices.durationSeconds / 60)
        let seconds = Int(result.indices.durationSeconds) % 60
        var parts = ["\(correction.inputCount) beats", "\(minutes) min \(seconds) s"]
        switch correction.method {
        case .none: parts.append("no artifact correction")
        case .kubios, .fitlab:
            let percent = String(format: "%.1f", correction.correctedPercent)
            parts.append("\(correction.method.rawValue) correction: \(correction.artifacts.count) artifacts (\(percent) %)")
        }
        return parts.joined(separator: " · ")
    }

    static func tachogram(_ rr: [Double], marked: [Int]) -> XYChart {
        var time = 0.0
        let points = rr.map { interval -> ChartPoint in
            time += interval / 1000
            return ChartPoint(x: time / 60, y: interval)
        }
        let markedPoints = marked.filter { $0 < points.count }.map { points[$0] }
        var chart = XYChart(
            title: "RR tachogram", xLabel: "Time (min)", yLabel: "RR interval (ms)",
            layers: [
                .line(points, stroke: Palette.primary, width: 1.2),
                .markers(markedPoints, stroke: Palette.accent, radius: 4),
            ])
        chart.legend = [("RR interval", Palette.primary), ("corrected beat (\(markedPoints.count))", Palette.accent)]
        return chart
    }

    public static func poincare(_ rr: [Double], nonlinear: NonlinearIndices?) -> XYChart {
        let pairs = zip(rr, rr.dropFirst()).map { ChartPoint(x: $0, y: $1) }
        var layers: [ChartLayer] = [.points(pairs, fill: Palette.primary, radius: 1.8, opacity: 0.35)]
        if let nonlinear, !rr.isEmpty {
            let mean = Statistics.mean(rr)
            let center = ChartPoint(x: mean, y: mean)
            layers.append(.ellipse(center: center, semiMajor: nonlinear.sd2, semiMinor: nonlinear.sd1, degrees: 45, stroke: Palette.accent))
            let d2 = nonlinear.sd2 / 2.0.squareRoot()
            let d1 = nonlinear.sd1 / 2.0.squareRoot()
            layers.append(.segment(from: center, to: ChartPoint(x: mean + d2, y: mean + d2), stroke: Palette.text, dash: nil))
            layers.append(.segment(from: center, to: ChartPoint(x: mean - d1, y: mean + d1), stroke: Palette.text, dash: "3 2"))
        }
        var chart = XYChart(title: "Poincaré plot", xLabel: "RRₙ (ms)", yLabel: "RRₙ₊₁ (ms)", layers: layers)
        chart.equalAspect = true
        if let nonlinear {
            chart.legend = [
                ("SD1 \(String(format: "%.1f", nonlinear.sd1)) ms", Palette.text),
                ("SD2 \(String(format: "%.1f", nonlinear.sd2)) ms", Palette.accent),
            ]
        }
        return chart
    }

    public static func spectrum(_ spectrum: PowerSpectrum?, frequency: FrequencyDomainIndices?) -> XYChart {
        let maximumFrequency = 0.5
        var points = [ChartPoint]()
        if let spectrum {
            for (f, density) in zip(spectrum.frequencies, spectrum.density) where f <= maximumFrequency {
                points.append(ChartPoint(x: f, y: density))
            }
        }
        let peak = points.map(\.y).max() ?? 1
        var chart = XYChart(
            title: "Power spectral density (\(methodName(frequency?.method)))", xLabel: "Frequency (Hz)", yLabel: "PSD (ms²/Hz)",
            xDomain: 0...maximumFrequency, yDomain: 0...LinearScale.niceDomain([peak * 1.1], includeZero: true).upperBound,
            layers: [
                .band(HRVBand.vlf.lowerBound...HRVBand.vlf.upperBound, fill: Palette.vlf, opacity: 0.45, label: "VLF"),
                .band(HRVBand.lf.lowerBound...HRVBand.lf.upperBound, fill: Palette.lf, opacity: 0.3, label: "LF"),
                .band(HRVBand.hf.lowerBound...HRVBand.hf.upperBound, fill: Palette.hf, opacity: 0.25, label: "HF"),
                .area(points, fill: Palette.primary, opacity: 0.15),
                .line(points, stroke: Palette.primary, width: 1.6),
            ])
        if let frequency {
            chart.legend = [
                ("LF \(String(format: "%.0f", frequency.lfPower)) ms²", Palette.lf),
                ("HF \(String(format: "%.0f", frequency.hfPower)) ms²", Palette.hf),
                ("LF/HF \(frequency.lfHfRatio.map { String(format: "%.2f", $0) } ?? "–")", Palette.text),
            ]
        }
        return chart
    }

    private static func methodName(_ method: SpectrumMethod?) -> String {
        switch method {
        case .lombScargle: "Lomb–Scargle"
        case .fitlab: "seed periodogram"
        default: "Welch"
        }
    }

    static func keyNumbers(_ indices: HRVIndices, on svg: inout SVGDocument, y: Double) {
        func format(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "–" }
            return String(format: "%.\(decimals)f", value)
        }
        let time = indices.timeDomain
        let frequency = indices.frequencyDomain
        let nonlinear = indices.nonlinear
        let cells: [(String, String)] = [
            ("Mean RR", "\(format(time?.meanNN, 0)) ms"), ("SDNN", "\(format(time?.sdnn, 1)) ms"),
            ("RMSSD", "\(format(time?.rmssd, 1)) ms"), ("pNN50", "\(format(time?.pnn50, 1)) %"),
            ("Mean HR", "\(format(time?.meanHR, 1)) bpm"), ("LF/HF", format(frequency?.lfHfRatio, 2)),
            ("SampEn", format(nonlinear?.sampleEntropy, 2)), ("DFA α1", format(nonlinear?.dfaAlpha1, 2)),
        ]
        let cellWidth = (width - 48) / Double(cells.count / 2)
        for (index, cell) in cells.enumerated() {
            let column = Double(index % (cells.count / 2))
            let row = Double(index / (cells.count / 2))
            let x = 24 + column * cellWidth
            let top = y + row * 66
            svg.rect(x: x, y: top, width: cellWidth - 12, height: 56, fill: "#f5f7fa", stroke: Palette.grid, radius: 6)
            svg.text(cell.0, x: x + 12, y: top + 20, size: 12, fill: Palette.mutedText)
            svg.text(cell.1, x: x + 12, y: top + 44, size: 20, weight: "600")
        }
    }
}
