import HeartworkCore
import HeartworkFormats

/// What `heartwork hrv` prints for one file (JSON shape; tables and CSV read from it).
struct HRVFileReport: Encodable {
    struct Correction: Encodable {
        let method: String
        let artifacts: [RRArtifact]
        let counts: [String: Int]
        let correctedPercent: Double
        let reliable: Bool
    }

    struct Window: Encodable {
        let startSeconds: Double
        let durationSeconds: Double
        let beats: Int
        let timeDomain: TimeDomainIndices?
        let frequencyDomain: FrequencyDomainIndices?
        let nonlinear: NonlinearIndices?
    }

    let file: String
    let beats: Int
    let correctedBeats: Int
    let durationSeconds: Double
    let unit: String
    let column: String?
    let correction: Correction
    let warnings: [String]
    let timeDomain: TimeDomainIndices?
    let frequencyDomain: FrequencyDomainIndices?
    let nonlinear: NonlinearIndices?
    let windows: [Window]?

    init(file: String, recording: RRRecording, result: HRVResult, windows: [HRVWindow]?) {
        self.file = file
        beats = recording.intervalsMilliseconds.count
        correctedBeats = result.correction.corrected.count
        durationSeconds = result.indices.durationSeconds
        unit = recording.unit.rawValue
        column = recording.column
        correction = Correction(
            method: result.correction.method.rawValue,
            artifacts: result.correction.artifacts,
            counts: Dictionary(uniqueKeysWithValues: result.correction.counts.map { ($0.key.rawValue, $0.value) }),
            correctedPercent: result.correction.correctedPercent,
            reliable: result.correction.isReliable)
        // What the file reader left out (issue 41: a PPI file's blocked intervals, a title line)
        // first, then the analysis's own warnings: nothing leaves the recording without a word.
        warnings = recording.warnings.map(\.description) + result.warnings
        timeDomain = result.indices.timeDomain
        frequencyDomain = result.indices.frequencyDomain
        nonlinear = result.indices.nonlinear
        self.windows = windows?.map { window in
            Window(
                startSeconds: window.startSeconds, durationSeconds: window.indices.durationSeconds,
                beats: window.indices.beatCount, timeDomain: window.indices.timeDomain,
                frequencyDomain: window.indices.frequencyDomain, nonlinear: window.indices.nonlinear)
        }
    }
}
