import Glibc

/// Structured logging for every layer: one line per event, `key=value` pairs (logfmt), written to standard error
/// unless another sink is given.
///
/// Example: `ts=2026-11-21T06:00:00.123Z level=info event=http.listening host=127.0.0.1 port=9000`.
///
/// A value type: copies share the sink but each keeps its level. Fields are an autoclosure, so a line below the
/// level costs a comparison and nothing is formatted.
public struct Log: Sendable {
    public let level: LogLevel
    private let sink: @Sendable (String) -> Void

    public init(level: LogLevel, sink: @escaping @Sendable (String) -> Void = Log.standardError) {
        self.level = level
        self.sink = sink
    }

    /// Writes each line with its newline to standard error, in one `write` unless the kernel takes less (lines
    /// from different threads never interleave below the pipe buffer size).
    public static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    public func debug(_ event: String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        self.emit(.debug, event, fields)
    }

    public func info(_ event: String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        self.emit(.info, event, fields)
    }

    public func warning(_ event: String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        self.emit(.warning, event, fields)
    }

    public func error(_ event: String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        self.emit(.error, event, fields)
    }

    public func critical(_ event: String, _ fields: @autoclosure () -> KeyValuePairs<String, String> = [:]) {
        self.emit(.critical, event, fields)
    }

    private func emit(_ level: LogLevel, _ event: String, _ fields: () -> KeyValuePairs<String, String>) {
        guard level >= self.level else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let timestamp = Self.timestamp(seconds: now.tv_sec, nanoseconds: now.tv_nsec)
        self.sink(Self.line(timestamp: timestamp, level: level, event: event, fields: fields()))
    }
}
