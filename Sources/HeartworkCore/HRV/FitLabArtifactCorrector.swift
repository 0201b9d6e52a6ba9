/// The FitLabTeam seed's streaming RR corrector, exactly as its Octave code behaves
/// (seed-001 digest §3.2, Annex B.3; after Solem, Laguna & Sörnmo, MEDICON 2004).
///
/// With m the mean of the current window (20 corrected outputs, 21 after any correction):
/// an interval below 0.75·m is stored tentatively; a second short one is merged into it
/// (extra beat); a normal one after it is merged when it rises by less than m/4 from the
/// raw previous interval, otherwise the two are averaged into two equal values (ectopic);
/// an interval above 1.75·m is halved and written over the previous output and appended
/// (missed beat — the code's quirk: the previous good beat is lost). The first 20 pass
/// through. Outputs are final once another output follows them, so `append` hands back
/// corrected intervals one beat late, in O(1) per beat.
public struct FitLabArtifactCorrector: Sendable {
    public static let windowLength = 20

    /// The most recent outputs (the window plus what is not yet emitted).
    private var tail: [Double] = []
    /// How many of the latest outputs the next window mean uses (20 or 21).
    private var windowCount = FitLabArtifactCorrector.windowLength
    private var outputCount = 0
    private var emittedCount = 0
    private var holdingShortInterval = false
    private var previousInput = 0.0
    private var inputCount = 0
    public private(set) var artifacts: [RRArtifact] = []
    /// Output indices of intervals the corrector wrote rather than passed through.
    public private(set) var correctedOutputIndices: [Int] = []

    public init() {}

    /// Feeds one interval (ms); returns the outputs that can no longer change.
    public mutating func append(_ rr: Double) -> [Double] {
        let index = inputCount
        defer {
            previousInput = rr
            inputCount += 1
        }
        let ns = Self.windowLength
        guard index >= ns else {
            push(rr)
            return emitFinal()
        }
        let window = tail.suffix(windowCount)
        let m = window.reduce(0, +) / Double(window.count)

        if rr - m < m * 3 / 4 - m {
            if holdingShortInterval {
                holdingShortInterval = false
                addToLast(rr, artifact: RRArtifact(index: index - 1, type: .extra))
            } else {
                push(rr)
                holdingShortInterval = true
            }
            windowCount = ns + 1
            return emitFinal()
        }
        if holdingShortInterval {
            holdingShortInterval = false
            if rr - previousInput < m / 4 {
                addToLast(rr, artifact: RRArtifact(index: index - 1, type: .extra))
            } else {
                let average = (tail[tail.count - 1] + rr) / 2
                tail[tail.count - 1] = average
                push(average)
                artifacts.append(RRArtifact(index: index - 1, type: .ectopic))
                correctedOutputIndices += [outputCount - 2, outputCount - 1]
            }
            windowCount = ns + 1
            return emitFinal()
        }
        if rr - m > m * 3 / 4 {
            let half = rr / 2
            tail[tail.count - 1] = half
            push(half)
            artifacts.append(RRArtifact(index: index, type: .missed))
            correctedOutputIndices += [outputCount - 2, outputCount - 1]
            windowCount = ns + 1
            return emitFinal()
        }
        push(rr)
        windowCount = ns
        return emitFinal()
    }

    /// Ends the stream: the last output (a tentative short interval stays as it is).
    public mutating func finish() -> [Double] {
        let remaining = Array(tail.suffix(outputCount - emittedCount))
        emittedCount = outputCount
        return remaining
    }

    /// Corrects a whole series.
    public static func correct(_ rrMilliseconds: [Double]) -> RRCorrection {
        var corrector = FitLabArtifactCorrector()
        var output = [Double]()
        output.reserveCapacity(rrMilliseconds.count)
        for rr in rrMilliseconds { output += corrector.append(rr) }
        output += corrector.finish()
        return RRCorrection(
            method: .fitlab, inputCount: rrMilliseconds.count, corrected: output,
            artifacts: corrector.artifacts, correctedIndices: corrector.correctedOutputIndices)
    }

    private mutating func push(_ value: Double) {
        tail.append(value)
        outputCount += 1
    }

    private mutating func addToLast(_ value: Double, artifact: RRArtifact) {
        tail[tail.count - 1] += value
        artifacts.append(artifact)
        correctedOutputIndices.append(outputCount - 1)
    }

    private mutating func emitFinal() -> [Double] {
        let finalCount = outputCount - 1
        guard finalCount > emittedCount else { return [] }
        let firstInTail = outputCount - tail.count
        let emitted = Array(tail[(emittedCount - firstInTail)..<(finalCount - firstInTail)])
        emittedCount = finalCount
        let keep = Self.windowLength + 2
        if tail.count > keep { tail.removeFirst(tail.count - keep) }
        return emitted
    }
}
