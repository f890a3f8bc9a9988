/// How important a log line is; lines below a `Log`'s level are dropped before anything is formatted.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, critical

    /// Parses a level name as the CLI takes it (`--log-level warning`), ignoring case; nil for anything else.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
