/// Kinds of RR-interval artifacts (Lipponen & Tarvainen 2019, J Med Eng Technol 43(3):173;
/// the seed's false positive / false negative / ectopic map onto extra / missed / ectopic).
public enum RRArtifactType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A premature beat: a short interval with a long one around it.
    case ectopic
    /// An interval too long to be a normal beat, but not two beats.
    case long
    /// An interval too short to be a normal beat, but not half of one.
    case short
    /// A beat the detector missed: the interval spans two beats and is split.
    case missed
    /// A beat the detector invented: the interval and the next are merged.
    case extra
}

/// One artifact: its type and the index of the interval in the input series.
public struct RRArtifact: Sendable, Hashable, Codable {
    public let index: Int
    public let type: RRArtifactType

    public init(index: Int, type: RRArtifactType) {
        self.index = index
        self.type = type
    }
}

/// The series after correction, with what was found.
public struct RRCorrection: Sendable, Hashable {
    /// Recordings with more corrected beats than this are not to be trusted (Kubios' guidance).
    public static let reliabilityLimitPercent = 5.0

    public let method: ArtifactCorrectionMethod
    public let inputCount: Int
    public let corrected: [Double]
    public let artifacts: [RRArtifact]
    /// Indices into `corrected` of intervals that were changed, inserted or merged.
    public let correctedIndices: [Int]

    public init(
        method: ArtifactCorrectionMethod, inputCount: Int, corrected: [Double],
        artifacts: [RRArtifact], correctedIndices: [Int]
    ) {
        self.method = method
        self.inputCount = inputCount
        self.corrected = corrected
        self.artifacts = artifacts
        self.correctedIndices = correctedIndices
    }

    public var counts: [RRArtifactType: Int] {
        var counts = Dictionary(uniqueKeysWithValues: RRArtifactType.allCases.map { ($0, 0) })
        for artifact in artifacts { counts[artifact.type, default: 0] += 1 }
        return counts
    }

    /// Artifacts as a percentage of the input intervals.
    public var correctedPercent: Double {
        inputCount == 0 ? 0 : 100 * Double(artifacts.count) / Double(inputCount)
    }

    public var isReliable: Bool { correctedPercent <= Self.reliabilityLimitPercent }
}

/// Which artifact correction to run.
public enum ArtifactCorrectionMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// Lipponen & Tarvainen 2019, the method Kubios HRV uses (our default).
    case kubios
    /// The FitLabTeam seed's streaming corrector, exactly as its Octave code behaves.
    case fitlab
    /// Leave the series as recorded.
    case none

    public func correct(_ rrMilliseconds: [Double]) -> RRCorrection {
        switch self {
        case .kubios: KubiosArtifactCorrector.correct(rrMilliseconds)
        case .fitlab: FitLabArtifactCorrector.correct(rrMilliseconds)
        case .none:
            RRCorrection(method: .none, inputCount: rrMilliseconds.count, corrected: rrMilliseconds, artifacts: [], correctedIndices: [])
        }
    }
}
