/// One option of a `hearth bench` load generator, declared once: its parser refuses every name not declared, and
/// its `--help` is written from the declarations, so the two cannot drift apart.
public struct BenchOption: Sendable, Equatable {
    /// The option as typed, `--clients`.
    public let name: String
    /// What its value looks like (`N`, `FILE`), or nil for a flag that takes none.
    public let value: String?
    /// What it does.
    public let meaning: String
    /// What applies when it is not given, as the help says it.
    public let byDefault: String?

    init(_ name: String, _ value: String?, _ meaning: String, default byDefault: String? = nil) {
        self.name = name
        self.value = value
        self.meaning = meaning
        self.byDefault = byDefault
    }

    /// The help of a load generator: its synopsis, then one entry per option with its meaning and default.
    static func help(synopsis: String, options: [BenchOption]) -> String {
        var lines = [synopsis, "", "options:"]
        for option in options {
            let left = "  " + option.name + (option.value.map { " " + $0 } ?? "")
            let meaning = option.meaning + (option.byDefault.map { " (default \($0))" } ?? "")
            let words = meaning.split(separator: " ")
            let fits = left.count + 2 <= 24
            var line = fits ? left + String(repeating: " ", count: 24 - left.count) : left
            if !fits {
                lines.append(line)
                line = String(repeating: " ", count: 24)
            }
            var startsLine = true
            for word in words {
                if !startsLine, line.count + 1 + word.count > 116 {
                    lines.append(line)
                    line = String(repeating: " ", count: 24)
                    startsLine = true
                }
                line += (startsLine ? "" : " ") + word
                startsLine = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
