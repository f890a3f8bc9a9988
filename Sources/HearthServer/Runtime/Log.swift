import Foundation
import Synchronization

/// How important a log line is; lines below the configured level are dropped.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, critical

    public init?(name: String) {
        guard let level = Self.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Structured logging: one line per event, `key=value` pairs, written to standard error.
///
/// Example: `ts=2026-11-21T06:00:00.123Z level=info event=http.listening host=127.0.0.1 port=9000`.
public struct Log: Sendable {
    public let level: LogLevel
    private let sink: @Sendable (String) -> Void

    public init(level: LogLevel, sink: @escaping @Sendable (String) -> Void = Log.standardError) {
        self.level = level
        self.sink = sink
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public func debug(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.emit(.debug, event, fields)
    }
    public func info(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.emit(.info, event, fields)
    }
    public func warning(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.emit(.warning, event, fields)
    }
    public func error(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.emit(.error, event, fields)
    }
    public func critical(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        self.emit(.critical, event, fields)
    }

    private func emit(_ level: LogLevel, _ event: String, _ fields: KeyValuePairs<String, String>) {
        guard level >= self.level else { return }
        var line = "ts=\(Self.timestamp()) level=\(level) event=\(event)"
        for (key, value) in fields {
            line += " \(key)=\(Self.quoted(value))"
        }
        self.sink(line)
    }

    private static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
        guard needsQuotes else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }

    private static func timestamp() -> String {
        let formatter = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return Date().formatted(formatter)
    }
}
