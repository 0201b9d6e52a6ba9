import ArgumentParser
import Foundation
import HeartworkCharts
import HeartworkCore
import HeartworkFormats

struct HRVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hrv",
        abstract: "Heart-rate variability of RR interval recordings, Kubios style.",
        discussion: """
            Reads RR intervals (one per line in ms or s, `time interval` lines, or CSV with a \
            header; also the exports of other tools: Kubios HRV text reports, Polar Flow RR \
            text, Elite HRV, Polar Sensor Logger), corrects artifacts, and reports time-domain, frequency-domain and nonlinear \
            indices. With several files, each is analysed on its own.

            Examples:
              heartwork hrv morning.txt
              heartwork hrv holter.csv --column rr_ms --window 300 --format csv > windows.csv
              heartwork hrv night.txt --format json --report night.svg
              heartwork hrv *.txt --correct fitlab --spectrum fitlab --format csv
            """
    )

    @Argument(help: "RR interval files.")
    var files: [String]

    @Option(help: "Artifact correction: kubios (Lipponen & Tarvainen 2019), fitlab (the seed's corrector) or none.")
    var correct: ArtifactCorrectionMethod = .kubios

    @Option(help: "Spectrum: welch (4 Hz spline, 256-s Hann segments), lomb (Lomb–Scargle) or fitlab (the seed's periodogram).")
    var spectrum: SpectrumMethod = .welch

    @Option(help: "Also analyse consecutive windows of this many seconds (e.g. 300).")
    var window: Double?

    @Option(help: "Output format: table, json or csv.")
    var format: HRVOutputFormat = .table

    @Option(help: "Write an SVG report (with several files, one per file: NAME-<file>.svg).")
    var report: String?

    @Option(help: "Units of the intervals: auto (by magnitude), ms or s.")
    var unit: UnitArgument = .auto

    @Option(help: "CSV column holding the intervals (default: rr, rri, rr_ms, ibi, …).")
    var column: String?

    @Flag(inversion: .prefixedNo, help: "Compute nonlinear indices (sample entropy, DFA).")
    var nonlinear = true

    func validate() throws {
        if let window, !(window >= 10 && window.isFinite) {
            throw ValidationError("--window must be at least 10 seconds")
        }
    }

    func run() throws {
        var reports = [HRVFileReport]()
        var written = [String]()
        var failed = false
        for file in files {
            do {
                let analysed = try analyse(file)
                reports.append(analysed.report)
                if let report {
                    let path = reportPath(for: file, base: report)
                    try analysed.svg.write(toFile: path, atomically: true, encoding: .utf8)
                    written.append(path)
                }
            } catch {
                StandardError.write("error: \(file): \(error)")
                failed = true
            }
        }
        if !reports.isEmpty { print(try render(reports)) }
        for path in written { StandardError.write("wrote \(path)") }
        if failed { throw ExitCode.failure }
    }

    func analyse(_ file: String) throws -> (report: HRVFileReport, svg: String) {
        let recording = try RRFile.read(path: file, unit: unit.value, column: column)
        let options = HRVOptions(correction: correct, spectrum: spectrum, includesNonlinear: nonlinear)
        let result = try HRVAnalysis.analyze(recording.intervalsMilliseconds, options: options)
        let windows = window.map { HRVAnalysis.windows(result.correction.corrected, windowSeconds: $0, options: options) }
        let name = URL(fileURLWithPath: file).lastPathComponent
        let svg = report == nil ? "" : HRVReportChart.svg(title: name, result: result)
        return (HRVFileReport(file: file, recording: recording, result: result, windows: windows), svg)
    }

    func render(_ reports: [HRVFileReport]) throws -> String {
        switch format {
        case .json: try JSONOutput.render(reports)
        case .csv: HRVCSV.render(reports)
        case .table: reports.map(HRVTable.render).joined(separator: "\n\n")
        }
    }

    private func reportPath(for file: String, base: String) -> String {
        guard files.count > 1 else { return base }
        let url = URL(fileURLWithPath: base)
        let stem = url.deletingPathExtension().path
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return "\(stem)-\(name).\(url.pathExtension.isEmpty ? "svg" : url.pathExtension)"
    }
}

enum HRVOutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}

enum UnitArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, ms, s

    var value: RRUnit? {
        switch self {
        case .auto: nil
        case .ms: .milliseconds
        case .s: .seconds
        }
    }
}

extension ArtifactCorrectionMethod: ExpressibleByArgument {}
extension SpectrumMethod: ExpressibleByArgument {}
