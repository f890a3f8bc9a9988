/// Readers of option values the `hearth bench` load generators share; each error names the option it read.
enum OptionValues {
    /// A whole number above zero.
    static func positive(_ name: String, _ value: String) throws(BenchOptionsError) -> Int {
        guard let number = Int(value), number > 0 else {
            throw BenchOptionsError(name, "needs a positive whole number")
        }
        return number
    }

    /// `30s`, `500ms`, `2m`, or a number of seconds; `0` only when `allowsZero`.
    static func duration(_ name: String, _ text: String, allowsZero: Bool = false) throws(BenchOptionsError)
        -> Duration
    {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            // A length that rounds to 0 ms is no length, and one past Int64 milliseconds no length either.
            if let number = Double(text.dropLast(unit.suffix.count)), number.isFinite,
                let milliseconds = Int64(exactly: (number * unit.seconds * 1000).rounded()),
                milliseconds > 0 || (allowsZero && number == 0)
            {
                return .milliseconds(milliseconds)
            }
        }
        let zero = allowsZero ? " (0 for none)" : ""
        throw BenchOptionsError(name, "takes a length such as 30s, 500ms or 2m\(zero), not \(text)")
    }

    /// A length as `duration(_:_:)` reads it back: whole seconds as `30s`, else whole milliseconds as `500ms`.
    static func text(of length: Duration) -> String {
        let milliseconds = Int64((length.inSeconds * 1000).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// `HOST:PORT`, the host possibly an IPv6 address written bare (`::1:9003`).
    static func node(_ name: String, _ text: some StringProtocol) throws(BenchOptionsError) -> StarsOptions.Node {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port), colon > text.startIndex
        else { throw BenchOptionsError(name, "takes HOST:PORT, not \(text)") }
        return StarsOptions.Node(host: String(text[..<colon]), port: port)
    }
}
