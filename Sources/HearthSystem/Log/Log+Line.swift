import Glibc

extension Log {
    /// One logfmt line: `ts=… level=… event=…` then the fields in order, each value quoted when it has to be.
    static func line(timestamp: String, level: LogLevel, event: String, fields: KeyValuePairs<String, String>)
        -> String
    {
        var line = "ts=\(timestamp) level=\(level) event=\(event)"
        for (key, value) in fields {
            line += " \(key)=\(Self.quoted(value))"
        }
        return line
    }

    /// UTC wall-clock time in ISO 8601 with milliseconds, e.g. `2026-11-21T06:00:00.123Z`.
    static func timestamp(seconds: Int, nanoseconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
        let clock = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
        return "\(date)T\(clock).\(padded(Int32(nanoseconds / 1_000_000), 3))Z"
    }

    /// `value` as is when it is a single bare word; otherwise in double quotes with `\`, `"` and control
    /// characters escaped, so a value can never end the line or forge another field.
    static func quoted(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty
            || value.unicodeScalars.contains {
                $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || Self.isControl($0)
            }
        guard needsQuotes else { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where Self.isControl(scalar):
                quoted += "\\u{\(String(scalar.value, radix: 16))}"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
