import ArgumentParser
import Foundation
import HeartworkCore

/// `heartwork simulate`: a synthetic RR recording (the default, `rr`), or a gateway.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate heart data: an RR recording (the default) or a gateway streaming straps.",
        subcommands: [SimulateRRCommand.self, SimulateGatewayCommand.self],
        defaultSubcommand: SimulateRRCommand.self
    )
}

struct SimulateRRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rr",
        abstract: "Write a synthetic RR recording (ms, one per line) to try the analyses.",
        discussion: """
            The model has respiratory sinus arrhythmia at 0.25 Hz, a 0.1 Hz Mayer wave, slow \
            drift and beat noise; artifacts (ectopic, missed, extra, long, short) can be injected.

            Examples:
              heartwork simulate --minutes 5 --seed 7 --artifact-rate 0.02 > rest.txt
              heartwork hrv rest.txt
              heartwork simulate gateway --server http://127.0.0.1:8080 --token hwg_… --sensors 12
            """
    )

    @Option(help: "Length of the recording in minutes.")
    var minutes: Double = 5

    @Option(help: "Random seed: the same seed gives the same recording.")
    var seed: UInt64 = 1

    @Option(name: .customLong("mean-rr"), help: "Mean RR interval in ms.")
    var meanRR: Double = 900

    @Option(name: .customLong("artifact-rate"), help: "Fraction of beats with an injected artifact (0–0.2).")
    var artifactRate: Double = 0

    func validate() throws {
        guard minutes > 0, minutes <= 7 * 24 * 60 else { throw ValidationError("--minutes must be between 0 and one week") }
        guard (300...1500).contains(meanRR) else { throw ValidationError("--mean-rr must be between 300 and 1500 ms") }
        guard (0...0.2).contains(artifactRate) else { throw ValidationError("--artifact-rate must be between 0 and 0.2") }
    }

    func run() throws {
        print(render())
    }

    func render() -> String {
        var model = SyntheticRRModel()
        model.meanMilliseconds = meanRR
        let beats = Int(minutes * 60_000 / meanRR)
        var series = model.generate(beats: beats, seed: seed)
        if artifactRate > 0 {
            var random = SplitMix64(seed: seed ^ 0xA57F_AC75)
            series = ArtifactInjector.inject(into: series, everyBeats: max(2, Int(1 / artifactRate)), using: &random).0
        }
        return series.map { String(format: "%.1f", $0) }.joined(separator: "\n")
    }
}
