/// Left-aligned text columns separated by two spaces, for terminal output.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns right-aligned (numbers).
    var rightAligned: Set<Int> = []

    func render() -> String {
        let all = [header] + rows
        let columnCount = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columnCount)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        var lines = [line(header)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        lines.append(contentsOf: rows.map(line))
        return lines.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
