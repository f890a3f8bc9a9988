/// The pieces of the Prometheus text exposition format (version 0.0.4) the metric families share: name checks,
/// escaping, number spelling and the `# HELP`/`# TYPE` header.
enum PrometheusText {
    /// Traps unless `name` is a valid metric or label name (`[a-zA-Z_:][a-zA-Z0-9_:]*`, no colon in labels):
    /// names are constants in code, so a bad one is a bug.
    static func checkName(_ name: String, isLabel: Bool = false) {
        let isValid =
            name.utf8.enumerated().allSatisfy { index, byte in
                let isLetter = (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || byte == 0x5F
                let isColon = byte == 0x3A && !isLabel
                let isDigit = (0x30...0x39).contains(byte)
                return isLetter || isColon || (index > 0 && isDigit)
            } && !name.isEmpty
        precondition(isValid, "'\(name)' is not a valid Prometheus \(isLabel ? "label" : "metric") name")
    }

    /// `# HELP` and `# TYPE` lines for a family.
    static func header(name: String, help: String, type: String) -> String {
        "# HELP \(name) \(Self.escape(help, quotes: false))\n# TYPE \(name) \(type)\n"
    }

    /// `{a="x",b="y"}` for the given names and values (with `extra` appended, e.g. a histogram's `le`), or the
    /// empty string when there are none.
    static func labels(_ names: [String], _ values: [String], extra: (name: String, value: String)? = nil) -> String {
        var pairs = zip(names, values).map { "\($0)=\"\(Self.escape($1, quotes: true))\"" }
        if let extra { pairs.append("\(extra.name)=\"\(extra.value)\"") }
        return pairs.isEmpty ? "" : "{" + pairs.joined(separator: ",") + "}"
    }

    /// A sample value: integers without a fraction (`12`, not `12.0`), then `+Inf`, `-Inf`, `NaN`, else Swift's
    /// shortest round-tripping spelling.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `\` and line feeds escaped (and `"` too, in label values, which may hold anything a client sent: an HTTP
    /// method, a wire action), so no text can break the exposition.
    private static func escape(_ text: String, quotes: Bool) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where quotes: escaped += "\\\""
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
