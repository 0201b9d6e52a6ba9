import Foundation

/// Readiness, beyond RISE and transparent about its inputs (issue 11): the 7-day mean of ln
/// RMSSD (or ln SDNN when the watch gives only SDNN) against the user's 60-day normal band
/// (mean ± 0.5 SD, as Plews et al. and HRV4Training use it), and the resting heart rate
/// against its 30-day baseline. Each input is shown against its band with a one-line reason;
/// a day the user marked sick or traveling is reported as such and left out of the baselines.
public enum Readiness {
    public static let shortWindowDays = 7
    public static let normalWindowDays = 60
    public static let restingBaselineDays = 30
    /// Half a standard deviation either side of the 60-day mean.
    public static let bandWidthSD = 0.5
    /// Resting heart rate this many bpm above its baseline counts as raised.
    public static let restingRaisedBPM = 5.0
    /// At least this many days of HRV in the 60 days before a band is drawn.
    public static let minimumNormalDays = 14

    public enum Status: String, Sendable, Hashable, Codable {
        case ready, normal, strained, unknown, sick, traveling
    }

    public struct Band: Sendable, Hashable, Codable {
        public var low: Double
        public var high: Double
    }

    public struct Input: Sendable, Hashable, Codable {
        public var name: String
        public var value: Double?
        public var band: Band?
        public var status: Status
        public var reason: String
    }

    public struct Result: Sendable, Hashable, Codable {
        public var status: Status
        public var inputs: [Input]
        public var reason: String
    }

    /// A day of the series, oldest first, ending with the day being judged.
    public struct DayValues: Sendable, Hashable {
        /// RMSSD in ms (preferred) or SDNN in ms; `isSDNN` says which.
        public var hrvMilliseconds: Double?
        public var isSDNN: Bool
        public var restingHeartRate: Double?
        /// "sick" or "traveling": the day is not a normal day.
        public var mark: Status?

        public init(hrvMilliseconds: Double? = nil, isSDNN: Bool = false, restingHeartRate: Double? = nil, mark: Status? = nil) {
            self.hrvMilliseconds = hrvMilliseconds
            self.isSDNN = isSDNN
            self.restingHeartRate = restingHeartRate
            self.mark = mark
        }
    }

    /// Readiness of the last day of `days` (oldest first; at most the last 60 + 7 are used).
    public static func assess(_ days: [DayValues]) -> Result {
        guard let today = days.last else { return Result(status: .unknown, inputs: [], reason: "no data for this day") }
        let normalDays = days.suffix(normalWindowDays).filter { $0.mark == nil }
        // One measure throughout: RMSSD when the latest HRV value is RMSSD, else SDNN.
        let useSDNN = days.last(where: { $0.hrvMilliseconds != nil })?.isSDNN ?? false
        let measure = useSDNN ? "ln SDNN" : "ln RMSSD"
        // Said in milliseconds (the band is worked out on the logarithm): "HRV (SDNN) 64 ms".
        let spoken = useSDNN ? "HRV (SDNN)" : "HRV (RMSSD)"
        func ms(_ ln: Double) -> String { exp(ln).isFinite ? "\(Int(exp(ln).rounded()))" : "–" }
        func ln(_ day: DayValues) -> Double? {
            guard let value = day.hrvMilliseconds, value > 0, value.isFinite, day.isSDNN == useSDNN else { return nil }
            return log(value)
        }
        var inputs = [Input]()
        // HRV: 7-day mean against the 60-day band.
        let recent = days.suffix(shortWindowDays).filter { $0.mark == nil }.compactMap(ln)
        let normal = normalDays.compactMap(ln)
        if recent.isEmpty {
            inputs.append(Input(name: measure, value: nil, band: nil, status: .unknown, reason: "no HRV in the last \(shortWindowDays) days"))
        } else if normal.count < minimumNormalDays {
            let mean = recent.reduce(0, +) / Double(recent.count)
            inputs.append(
                Input(
                    name: measure, value: rounded(mean), band: nil, status: .unknown,
                    reason: "your normal band is learnt from \(minimumNormalDays) days with HRV: \(normal.count) so far"))
        } else {
            let mean = recent.reduce(0, +) / Double(recent.count)
            let normalMean = normal.reduce(0, +) / Double(normal.count)
            let sd = (normal.map { ($0 - normalMean) * ($0 - normalMean) }.reduce(0, +) / Double(normal.count - 1)).squareRoot()
            let band = Band(low: rounded(normalMean - bandWidthSD * sd), high: rounded(normalMean + bandWidthSD * sd))
            let status: Status
            let reason: String
            if mean < normalMean - bandWidthSD * sd {
                status = .strained
                reason = "7-day \(spoken) \(ms(rounded(mean))) ms is below your normal band \(ms(band.low))–\(ms(band.high)) ms"
            } else if mean > normalMean + bandWidthSD * sd {
                status = .ready
                reason = "7-day \(spoken) \(ms(rounded(mean))) ms is above your normal band \(ms(band.low))–\(ms(band.high)) ms"
            } else {
                status = .normal
                reason = "7-day \(spoken) \(ms(rounded(mean))) ms is within your normal band \(ms(band.low))–\(ms(band.high)) ms"
            }
            inputs.append(Input(name: measure, value: rounded(mean), band: band, status: status, reason: reason))
        }
        // Resting heart rate: today's against the 30-day baseline (the days before today).
        let baselineDays = normalDays.dropLast(normalDays.last == today ? 1 : 0).suffix(restingBaselineDays).compactMap(\.restingHeartRate).filter(\.isFinite)
        if let resting = today.restingHeartRate, resting.isFinite {
            if baselineDays.count >= 7 {
                let baseline = baselineDays.reduce(0, +) / Double(baselineDays.count)
                let band = Band(low: rounded(baseline - restingRaisedBPM), high: rounded(baseline + restingRaisedBPM))
                let raised = resting > baseline + restingRaisedBPM
                inputs.append(
                    Input(
                        name: "resting heart rate", value: rounded(resting), band: band, status: raised ? .strained : .normal,
                        reason: raised
                            ? "resting heart rate \(format(resting)) bpm is more than \(Int(restingRaisedBPM)) above your 30-day baseline \(Int(baseline.rounded())) bpm"
                            : "resting heart rate \(format(resting)) bpm is near your 30-day baseline \(Int(baseline.rounded())) bpm"))
            } else {
                inputs.append(
                    Input(
                        name: "resting heart rate", value: rounded(resting), band: nil, status: .unknown,
                        reason:
                            "today's counts; your baseline is learnt from 7 earlier days with a resting heart rate: \(baselineDays.isEmpty ? "none" : "\(baselineDays.count)") so far"
                    ))
            }
        } else {
            inputs.append(Input(name: "resting heart rate", value: nil, band: nil, status: .unknown, reason: "no resting heart rate for this day"))
        }
        if let mark = today.mark {
            return Result(status: mark, inputs: inputs, reason: "you marked this day \(mark.rawValue): it is left out of your baselines")
        }
        let known = inputs.filter { $0.status != .unknown }
        let status: Status
        if known.isEmpty {
            status = .unknown
        } else if known.contains(where: { $0.status == .strained }) {
            status = .strained
        } else if known.contains(where: { $0.status == .ready }) {
            status = .ready
        } else {
            status = .normal
        }
        let reason = known.isEmpty ? (inputs.first?.reason ?? "no data for this day") : known.map(\.reason).joined(separator: "; ")
        return Result(status: status, inputs: inputs, reason: reason)
    }

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    /// Two decimals at most, without trailing zeros (53.8, not 53.80).
    static func format(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// Training load from Banister TRIMP per day (issue 11): acute (7-day) and chronic (42-day)
/// exponentially weighted averages, λ = 2/(N + 1) (Williams et al. 2017, "Better way to
/// determine the acute:chronic workload ratio?", Br J Sports Med 51:209), and their balance
/// (chronic − acute, Banister's "form"; positive = fresher than the load one is used to).
public enum TrainingLoad {
    public static let acuteDays = 7
    public static let chronicDays = 42
    /// The acute:chronic ratio is judged only when the first day with load lies this many days
    /// back: with less, the chronic average is mostly the zeros before it, and one first run
    /// reads as a ratio of 5 (issue 41). Four weeks, the chronic window of Gabbett's
    /// acute:chronic studies (Br J Sports Med 50:273, 2016).
    public static let minimumHistoryDays = 28

    public struct Point: Sendable, Hashable, Codable {
        public var trimp: Double
        public var acute: Double
        public var chronic: Double
        public var balance: Double
        /// acute ÷ chronic; nil while the chronic load is zero.
        public var ratio: Double?
    }

    /// One point per day, oldest first; `dailyTRIMP` has a value for every day (0 when none).
    public static func series(dailyTRIMP: [Double]) -> [Point] {
        let acuteLambda = 2 / Double(acuteDays + 1)
        let chronicLambda = 2 / Double(chronicDays + 1)
        var acute = 0.0
        var chronic = 0.0
        return dailyTRIMP.map { raw in
            let trimp = raw.isFinite && raw > 0 ? raw : 0
            acute = acuteLambda * trimp + (1 - acuteLambda) * acute
            chronic = chronicLambda * trimp + (1 - chronicLambda) * chronic
            let r = { (x: Double) in (x * 10).rounded() / 10 }
            return Point(
                trimp: r(trimp), acute: r(acute), chronic: r(chronic), balance: r(chronic - acute),
                ratio: chronic > 0 ? (acute / chronic * 100).rounded() / 100 : nil)
        }
    }
}
