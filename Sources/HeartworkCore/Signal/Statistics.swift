import Foundation

/// Small numerical helpers shared by the HRV indices; names say which estimator.
public enum Statistics {
    public static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    /// Sample variance (n − 1 denominator), two-pass.
    public static func sampleVariance(_ values: [Double]) -> Double {
        guard values.count > 1 else { return .nan }
        let average = mean(values)
        var sum = 0.0
        for value in values {
            let deviation = value - average
            sum += deviation * deviation
        }
        return sum / Double(values.count - 1)
    }

    public static func sampleStandardDeviation(_ values: [Double]) -> Double {
        sampleVariance(values).squareRoot()
    }

    /// Quantile of already sorted values by linear interpolation between closest ranks
    /// (numpy's and pandas' default "linear" method): position (n − 1)·q.
    public static func quantile(sorted: some RandomAccessCollection<Double>, _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = Double(sorted.count - 1) * q
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        let low = sorted[sorted.index(sorted.startIndex, offsetBy: lower)]
        let high = sorted[sorted.index(sorted.startIndex, offsetBy: upper)]
        return low + (high - low) * fraction
    }

    public static func median(_ values: [Double]) -> Double {
        quantile(sorted: values.sorted(), 0.5)
    }
}

/// A multiset kept sorted, for sliding-window medians and quartiles: insert and remove
/// cost O(w) for a window of w values, independent of the series length.
struct SortedWindow {
    private(set) var values: [Double] = []

    mutating func insert(_ value: Double) {
        values.insert(value, at: insertionIndex(of: value))
    }

    mutating func remove(_ value: Double) {
        let index = insertionIndex(of: value)
        if index < values.count && values[index] == value {
            values.remove(at: index)
        } else if let found = values.firstIndex(of: value) {
            values.remove(at: found)
        }
    }

    func quantile(_ q: Double) -> Double { Statistics.quantile(sorted: values, q) }

    /// First index whose value is not less than `value`.
    private func insertionIndex(of value: Double) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
