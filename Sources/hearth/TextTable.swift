/// Left-aligned columns for terminal output: each column as wide as its widest cell, two spaces apart, and no
/// padding after the last, so lines carry no trailing blanks.
struct TextTable {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ cells: String...) {
        self.rows.append(cells)
    }

    /// The table as lines, header first.
    var lines: [String] {
        let all = [self.header] + self.rows
        let widths = self.header.indices.map { column in all.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let isLast = column == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
    }
}
