/// Injects artifacts of known kind at known positions into a clean series: the validation
/// of the correctors (issue #3) and demo recordings use it. About one artifact per
/// `everyBeats` beats, never within 30 beats of either end.
public enum ArtifactInjector {
    public struct Injected: Sendable, Hashable {
        public let index: Int
        public let type: RRArtifactType
        /// Intervals in the output the artifact occupies.
        public let length: Int
    }

    public static func inject(
        into clean: [Double], everyBeats: Int, kinds: [RRArtifactType] = RRArtifactType.allCases,
        using random: inout SplitMix64
    ) -> ([Double], [Injected]) {
        var output = [Double]()
        var truth = [Injected]()
        var i = 0
        while i < clean.count {
            guard i > 30, i < clean.count - 30, Int.random(in: 0..<everyBeats, using: &random) == 0 else {
                output.append(clean[i])
                i += 1
                continue
            }
            let kind = kinds.randomElement(using: &random)!
            let at = output.count
            switch kind {
            case .ectopic:
                let p = Double.random(in: 0.25...0.4, using: &random)
                output += [clean[i] * (1 - p), clean[i + 1] + clean[i] * p]
                truth.append(Injected(index: at, type: kind, length: 2))
                i += 2
            case .missed:
                output.append(clean[i] + clean[i + 1])
                truth.append(Injected(index: at, type: kind, length: 1))
                i += 2
            case .extra:
                let q = Double.random(in: 0.3...0.7, using: &random)
                output += [clean[i] * q, clean[i] * (1 - q)]
                truth.append(Injected(index: at, type: kind, length: 2))
                i += 1
            case .long, .short:
                let p = Double.random(in: 0.3...0.45, using: &random) * (kind == .long ? 1 : -1)
                output.append(clean[i] * (1 + p))
                truth.append(Injected(index: at, type: kind, length: 1))
                i += 1
            }
        }
        return (output, truth)
    }
}
