/// Heart rate against the anomaly detector's forecast (issue 25, seed 003's heart-rate
/// prediction, F9): the band the model expected (its forecast ± k·σ) in grey-blue, the heart
/// rate measured in blue over it, readings outside the band as orange dots and the stretches
/// the detector flagged shaded orange behind everything. Gaps (no reading, or activity that
/// explains the heart rate) break the line and the band.
public struct ForecastChart: Sendable {
    /// One slot of the detector's grid, `x` its start in the chart's x units.
    public struct Slot: Sendable, Hashable {
        public var x: Double
        public var observed: Double?
        public var low: Double?
        public var high: Double?
        public var outside: Bool

        public init(x: Double, observed: Double?, low: Double?, high: Double?, outside: Bool) {
            self.x = x
            self.observed = observed
            self.low = low
            self.high = high
            self.outside = outside
        }
    }

    public static let measuredColor = Palette.primary
    public static let bandColor = "#9fb3c8"
    public static let flaggedColor = Palette.accent
    /// The legend, in words a reader knows.
    public static let legend: [(label: String, color: String)] = [
        ("your heart rate", measuredColor), ("expected range", bandColor), ("unusual stretch", flaggedColor),
    ]

    public var title: String
    public var slots: [Slot]
    /// A slot's width in x units.
    public var slotWidth: Double
    /// The flagged stretches, in x units.
    public var flagged: [ClosedRange<Double>]
    public var xDomain: ClosedRange<Double>

    public init(title: String, slots: [Slot], slotWidth: Double, flagged: [ClosedRange<Double>], xDomain: ClosedRange<Double>) {
        self.title = title
        self.slots = slots
        self.slotWidth = slotWidth
        self.flagged = flagged
        self.xDomain = xDomain
    }

    /// The band as ribbons, one for each run of slots with a forecast (a slot's values at its
    /// middle; a run of one slot spans the slot).
    public var bands: [(lower: [ChartPoint], upper: [ChartPoint])] {
        runs { $0.low != nil && $0.high != nil }.map { run in
            let xs = run.count == 1 ? [run[0].x, run[0].x + slotWidth] : run.map { $0.x + slotWidth / 2 }
            let pairs = run.count == 1 ? [run[0], run[0]] : run
            return (
                zip(xs, pairs).map { ChartPoint(x: $0, y: $1.low ?? 0) },
                zip(xs, pairs).map { ChartPoint(x: $0, y: $1.high ?? 0) }
            )
        }
    }

    /// The measured heart rate as lines, one for each run of slots with a reading.
    public var measured: [[ChartPoint]] {
        runs { $0.observed != nil }.map { run in run.map { ChartPoint(x: $0.x + slotWidth / 2, y: $0.observed ?? 0) } }
    }

    /// The readings outside the band.
    public var outside: [ChartPoint] {
        slots.filter(\.outside).compactMap { slot in slot.observed.map { ChartPoint(x: slot.x + slotWidth / 2, y: $0) } }
    }

    /// What the chart draws, back to front.
    public var layers: [ChartLayer] {
        var layers = flagged.map { ChartLayer.band($0, fill: Self.flaggedColor, opacity: 0.16, label: nil) }
        layers += bands.map { ChartLayer.ribbon(lower: $0.lower, upper: $0.upper, fill: Self.bandColor, opacity: 0.55) }
        layers += measured.map { $0.count == 1 ? ChartLayer.points($0, fill: Self.measuredColor, radius: 2, opacity: 1) : .line($0, stroke: Self.measuredColor, width: 1.5) }
        let outside = self.outside
        if !outside.isEmpty { layers.append(.points(outside, fill: Self.flaggedColor, radius: 3, opacity: 1)) }
        return layers
    }

    /// Whole beats a minute around everything drawn, 5 bpm of room each side.
    public var yDomain: ClosedRange<Double> {
        let values = slots.flatMap { [$0.observed, $0.low, $0.high].compactMap { $0 } }.filter(\.isFinite)
        guard let low = values.min(), let high = values.max() else { return 40...120 }
        return (max(0, (low - 5).rounded(.down)))...((high + 5).rounded(.up))
    }

    /// The chart, for a caller to set ticks and draw.
    public var chart: XYChart {
        var chart = XYChart(title: title, xLabel: "Hour", yLabel: "Heart rate (bpm)", xDomain: xDomain, yDomain: yDomain, layers: layers)
        chart.legend = Self.legend
        return chart
    }

    private func runs(_ included: (Slot) -> Bool) -> [[Slot]] {
        var runs = [[Slot]]()
        var current = [Slot]()
        for slot in slots {
            if included(slot) {
                current.append(slot)
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}
