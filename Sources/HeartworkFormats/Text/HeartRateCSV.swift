import HeartworkCore

/// A heart-rate series as CSV rows `second,bpm`: an optional `second,bpm` header, blank
/// lines and `#` comments allowed; seconds may be fractional and must not go backwards.
public enum HeartRateCSV {
    public static func read(path: String) throws(TextInputError) -> [TimedHeartRate] {
        let reader: TextLineReader
        do { reader = try TextLineReader(path: path) } catch { throw .file(error) }
        return try read(reader)
    }

    public static func read(text: String) throws(TextInputError) -> [TimedHeartRate] {
        try read(TextLineReader(text: text))
    }

    private static func read(_ reader: TextLineReader) throws(TextInputError) -> [TimedHeartRate] {
        var readings = [TimedHeartRate]()
        var sawContent = false
        while true {
            let nextLine: String?
            do { nextLine = try reader.nextLine() } catch { throw .file(error) }
            guard let line = nextLine else { break }
            let number = reader.lineNumber
            let content = Substring(line).trimmingWhitespace
            if content.isEmpty || content.hasPrefix("#") { continue }
            defer { sawContent = true }
            let fields = content.split(separator: ",", omittingEmptySubsequences: false)
            if !sawContent && isHeader(fields) { continue }
            guard fields.count == 2 else {
                throw .format(TextFormatError(line: number, "expected 2 comma-separated fields `second,bpm`, found \(fields.count)"))
            }
            guard let second = finiteNumber(fields[0]) else {
                throw .format(TextFormatError(line: number, "second '\(fields[0].trimmingWhitespace)' is not a number"))
            }
            guard let bpm = finiteNumber(fields[1]) else {
                throw .format(TextFormatError(line: number, "bpm '\(fields[1].trimmingWhitespace)' is not a number"))
            }
            guard second >= 0 else {
                throw .format(TextFormatError(line: number, "second \(second) is negative"))
            }
            guard bpm == 0 || PhysiologicalLimits.plausibleHeartRate.contains(bpm) else {
                throw .format(TextFormatError(line: number, "heart rate \(bpm) bpm is outside 20–250 bpm (0 marks a missing reading)"))
            }
            if let previous = readings.last, second < previous.timeSeconds {
                throw .format(TextFormatError(line: number, "second \(second) comes before the previous row's \(previous.timeSeconds)"))
            }
            readings.append(TimedHeartRate(timeSeconds: second, beatsPerMinute: bpm))
        }
        guard !readings.isEmpty else {
            throw .format(TextFormatError(line: nil, "no heart-rate rows: expected lines `second,bpm`"))
        }
        return readings
    }

    private static func isHeader(_ fields: [Substring]) -> Bool {
        fields.count == 2
            && fields[0].trimmingWhitespace.lowercased() == "second"
            && fields[1].trimmingWhitespace.lowercased() == "bpm"
    }
}
