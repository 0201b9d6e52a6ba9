import Foundation

/// Heart-rate anomaly detection — **our own design**: seed 003 (iHeart Monitor) only
/// prototyped an "AR regression" offline and gave no rule, threshold or features
/// (`../shared/spec/seed-003-digest.md` §3.1, F9). PRODUCT.md fixes the outline; the details:
///
/// 1. The heart rate is resampled onto a regular grid (`intervalSeconds`, default 5 min), each
///    slot the mean of its readings; slots without readings, or with activity (steps above
///    `activeStepsPerSlot`, or inside a workout), are gaps. A step sample's count is spread
///    evenly over the time it covers (issue 24: a 20-minute walk of 2,000 steps is 500 steps in
///    each of its four slots, not 2,000 in its first and "at rest" after it).
/// 2. An AR(p) model x̂ₜ = c + Σᵢ aᵢ·xₜ₋ᵢ is fitted by ordinary least squares (normal
///    equations, solved by Cholesky with a small ridge for stability) on the resting slots of
///    the training span, using only windows of p + 1 consecutive resting slots.
/// 3. Each later resting slot with p resting slots before it is forecast one step ahead; it
///    leaves the band when |x − x̂| > k·σ, σ the residual standard deviation of the fit.
/// 4. An anomaly is `consecutive` (default 3) or more such slots in a row, none explained by
///    activity (an active or missing slot breaks the run).
/// 5. A day is tested by a model fitted on the days before it, never on itself
///    (`anomalies(in:start:testingFrom:)`), so the day's own rises cannot widen the band or
///    become its normal.
public struct HeartRateAnomalyDetector: Sendable, Hashable {
    public var order: Int
    public var bandSD: Double
    public var consecutive: Int
    public var intervalSeconds: Double
    public var activeStepsPerSlot: Double

    public init(order: Int = 3, bandSD: Double = 3, consecutive: Int = 3, intervalSeconds: Double = 300, activeStepsPerSlot: Double = 100) {
        self.order = max(1, min(24, order))
        self.bandSD = bandSD.isFinite && bandSD > 0 ? bandSD : 3
        self.consecutive = max(1, min(100, consecutive))
        self.intervalSeconds = intervalSeconds.isFinite && intervalSeconds >= 5 ? intervalSeconds : 300
        self.activeStepsPerSlot = activeStepsPerSlot.isFinite && activeStepsPerSlot >= 0 ? activeStepsPerSlot : 100
    }

    /// The fitted model.
    public struct Model: Sendable, Hashable {
        public var intercept: Double
        public var coefficients: [Double]  // a₁ … a_p
        public var residualSD: Double
        public var trainingWindows: Int

        public func forecast(_ previous: ArraySlice<Double>) -> Double {
            // previous: oldest first, its last element is xₜ₋₁.
            var value = intercept
            for (i, a) in coefficients.enumerated() { value += a * previous[previous.endIndex - 1 - i] }
            return value
        }
    }

    /// A run of slots outside the forecast band.
    public struct Anomaly: Sendable, Hashable, Codable {
        /// Seconds (same clock as the input) of the first slot's start and the last slot's end.
        public var startSeconds: Double
        public var endSeconds: Double
        public var slots: Int
        /// The largest |observed − forecast| of the run, and the band half-width k·σ.
        public var largestDeviation: Double
        public var band: Double
        public var meanObserved: Double
        public var meanForecast: Double

        public var reason: String {
            let direction = meanObserved > meanForecast ? "above" : "below"
            return String(
                format: "heart rate %.0f bpm for %d min, %@ the %.0f bpm the model expected at rest (band ±%.1f bpm), with no activity to explain it",
                meanObserved, Int(endSeconds - startSeconds) / 60, direction, meanForecast, band)
        }
    }

    /// Readings on a regular grid: nil where there is no reading or there is activity. Each
    /// step sample's count is spread evenly over `startSeconds..<endSeconds` (all of it in the
    /// slot of its start when it has no length).
    public func resample(
        heartRate: [TimedHeartRate], steps: [(startSeconds: Double, endSeconds: Double, count: Double)] = [],
        activeSpans: [ClosedRange<Double>] = [], from start: Double, to end: Double
    ) -> [Double?] {
        guard end > start, start.isFinite, end.isFinite else { return [] }
        let count = Int(min(1_000_000, ((end - start) / intervalSeconds).rounded(.up)))
        var sums = [Double](repeating: 0, count: count)
        var counts = [Int](repeating: 0, count: count)
        var active = [Bool](repeating: false, count: count)
        func slot(_ t: Double) -> Int? {
            guard t.isFinite, t >= start, t < end else { return nil }
            let i = Int((t - start) / intervalSeconds)
            return i < count ? i : nil
        }
        for reading in heartRate where reading.beatsPerMinute.isFinite && reading.beatsPerMinute > 0 {
            if let i = slot(reading.timeSeconds) {
                sums[i] += reading.beatsPerMinute
                counts[i] += 1
            }
        }
        var stepSums = [Double](repeating: 0, count: count)
        for step in steps where step.count.isFinite && step.startSeconds.isFinite && step.endSeconds.isFinite {
            let length = step.endSeconds - step.startSeconds
            guard length > 0 else {
                if let i = slot(step.startSeconds) { stepSums[i] += step.count }
                continue
            }
            // The share of the count in each slot the sample overlaps.
            let low = min(max(start, step.startSeconds), end)
            let high = max(min(end, step.endSeconds), start)
            guard low < high else { continue }
            let first = Int(((low - start) / intervalSeconds).rounded(.down))
            let last = Int(((high - start) / intervalSeconds).rounded(.up)) - 1
            guard first <= last, first < count else { continue }
            for i in first...min(count - 1, last) {
                let slotStart = start + Double(i) * intervalSeconds
                let overlap = min(step.endSeconds, slotStart + intervalSeconds) - max(step.startSeconds, slotStart)
                if overlap > 0 { stepSums[i] += step.count * overlap / length }
            }
        }
        for i in 0..<count where stepSums[i] > activeStepsPerSlot { active[i] = true }
        // A span wholly before the grid or after it marks nothing (one that ended before
        // `start` once marked every slot active: its end fell off the grid).
        for span in activeSpans where span.upperBound >= start && span.lowerBound < end {
            guard let first = slot(max(start, span.lowerBound)) else { continue }
            let last = slot(min(end - 0.001, span.upperBound)) ?? count - 1
            if first <= last { for i in first...last { active[i] = true } }
        }
        return (0..<count).map { i in counts[i] > 0 && !active[i] ? sums[i] / Double(counts[i]) : nil }
    }

    /// Fits the model on a resampled series; nil with fewer than 5·(p + 1) training windows.
    public func fit(_ series: [Double?]) -> Model? {
        let p = order
        let n = p + 1  // unknowns: intercept + p coefficients
        var xtx = [Double](repeating: 0, count: n * n)
        var xty = [Double](repeating: 0, count: n)
        var windows = [(row: [Double], y: Double)]()
        var run = [Double]()
        for value in series {
            guard let value else {
                run.removeAll()
                continue
            }
            if run.count >= p {
                var row = [1.0]
                for i in 0..<p { row.append(run[run.count - 1 - i]) }
                windows.append((row, value))
            }
            run.append(value)
            if run.count > p { run.removeFirst() }
        }
        guard windows.count >= 5 * n else { return nil }
        for (row, y) in windows {
            for i in 0..<n {
                xty[i] += row[i] * y
                for j in 0..<n { xtx[i * n + j] += row[i] * row[j] }
            }
        }
        // A small ridge on the coefficients (not the intercept) keeps a flat series solvable.
        for i in 1..<n { xtx[i * n + i] += 1e-6 * Double(windows.count) }
        guard let beta = Self.solveCholesky(xtx, xty, n) else { return nil }
        var model = Model(intercept: beta[0], coefficients: Array(beta.dropFirst()), residualSD: 0, trainingWindows: windows.count)
        let residuals = windows.map { w in w.y - zip(w.row, beta).map(*).reduce(0, +) }
        let variance = residuals.map { $0 * $0 }.reduce(0, +) / Double(max(1, windows.count - n))
        // A floor of 1 bpm: a watch reports whole beats, so a band narrower than that flags noise.
        model.residualSD = max(1, variance.squareRoot())
        return model
    }

    /// One slot as the detector tested it: what was observed, what the model expected there
    /// one step ahead (nil in a gap, and for the first p slots after one), and whether the
    /// observation left the band (|x − x̂| > k·σ).
    public struct TestedSlot: Sendable, Hashable {
        public var index: Int
        public var observed: Double?
        public var forecast: Double?
        public var outside: Bool
    }

    /// A tested span: the model fitted on what came before it, the band's half-width k·σ, each
    /// slot of the span as tested, and the anomalies that start in it.
    public struct Forecast: Sendable, Hashable {
        public var model: Model
        public var band: Double
        public var slots: [TestedSlot]
        public var anomalies: [Anomaly]
    }

    /// Tests the slots from `testingFrom` on (a day) with a model fitted on the slots before
    /// it only (the days before the day); anomalies that start before it are not the day's.
    /// Nil when the days before do not hold enough resting data to fit a model.
    public func anomalies(in series: [Double?], start: Double, testingFrom slot: Int) -> (model: Model, anomalies: [Anomaly])? {
        forecast(series, start: start, testingFrom: slot).map { ($0.model, $0.anomalies) }
    }

    /// What `anomalies(in:start:testingFrom:)` decides, slot by slot: the forecast and band the
    /// history page draws under the day's heart rate, and the stretches it flags.
    public func forecast(_ series: [Double?], start: Double, testingFrom slot: Int) -> Forecast? {
        let slot = max(0, min(series.count, slot))
        guard let model = fit(Array(series[..<slot])) else { return nil }
        let slots = trace(series, model: model)
        let first = start + Double(slot) * intervalSeconds
        return Forecast(
            model: model, band: bandSD * model.residualSD, slots: Array(slots[slot...]),
            anomalies: runs(slots, model: model, start: start).filter { $0.startSeconds >= first })
    }

    /// The anomalies of `series` (resampled, slot i starting at start + i·interval) under `model`.
    public func detect(_ series: [Double?], model: Model, start: Double) -> [Anomaly] {
        runs(trace(series, model: model), model: model, start: start)
    }

    /// Every slot of `series` tested one step ahead. Forecasts use the observed history; inside
    /// a run outside the band the forecast is fed its own forecasts, so a sustained shift does
    /// not become the new normal; a gap starts the history again.
    public func trace(_ series: [Double?], model: Model) -> [TestedSlot] {
        let p = model.coefficients.count
        let band = bandSD * model.residualSD
        var slots = [TestedSlot]()
        slots.reserveCapacity(series.count)
        var history = [Double]()
        for (i, value) in series.enumerated() {
            guard let value else {
                history.removeAll()
                slots.append(TestedSlot(index: i, observed: nil, forecast: nil, outside: false))
                continue
            }
            guard history.count >= p else {
                history.append(value)
                slots.append(TestedSlot(index: i, observed: value, forecast: nil, outside: false))
                continue
            }
            let forecast = model.forecast(history[...])
            let outside = abs(value - forecast) > band
            slots.append(TestedSlot(index: i, observed: value, forecast: forecast, outside: outside))
            history.append(outside ? forecast : value)
            if history.count > p { history.removeFirst() }
        }
        return slots
    }

    /// Runs of `consecutive` or more slots in a row outside the band (a slot inside it, a gap
    /// or a slot without a forecast ends a run).
    func runs(_ slots: [TestedSlot], model: Model, start: Double) -> [Anomaly] {
        let band = bandSD * model.residualSD
        var anomalies = [Anomaly]()
        var run = [TestedSlot]()
        func close(at index: Int) {
            if run.count >= consecutive, let first = run.first {
                let observed = run.compactMap(\.observed)
                let forecast = run.compactMap(\.forecast)
                let deviations = zip(observed, forecast).map { abs($0 - $1) }
                anomalies.append(
                    Anomaly(
                        startSeconds: start + Double(first.index) * intervalSeconds, endSeconds: start + Double(index) * intervalSeconds,
                        slots: run.count, largestDeviation: ((deviations.max() ?? 0) * 10).rounded() / 10,
                        band: (band * 10).rounded() / 10, meanObserved: observed.reduce(0, +) / Double(observed.count),
                        meanForecast: forecast.reduce(0, +) / Double(forecast.count)))
            }
            run.removeAll()
        }
        for slot in slots {
            if slot.outside {
                run.append(slot)
            } else {
                close(at: slot.index)
            }
        }
        close(at: slots.last.map { $0.index + 1 } ?? 0)
        return anomalies
    }

    /// Solves the symmetric positive definite system A·x = b (n × n, row-major).
    static func solveCholesky(_ a: [Double], _ b: [Double], _ n: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 0, sum.isFinite else { return nil }
                    l[i * n + i] = sum.squareRoot()
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var sum = b[i]
            for k in 0..<i { sum -= l[i * n + k] * y[k] }
            y[i] = sum / l[i * n + i]
        }
        var x = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<n { sum -= l[k * n + i] * x[k] }
            x[i] = sum / l[i * n + i]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
