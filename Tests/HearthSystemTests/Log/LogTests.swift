import Synchronization
import Testing

@testable import HearthSystem

/// Collects the lines a `Log` writes.
private final class LineSink: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { self.lines.withLock { $0 } }

    func log(_ level: LogLevel) -> Log {
        Log(level: level) { line in self.lines.withLock { $0.append(line) } }
    }

    /// Each line with its leading `ts=… ` field removed, so expectations do not depend on the time.
    var withoutTimestamps: [String] {
        self.all.map { line in
            guard line.hasPrefix("ts="), let space = line.firstIndex(of: " ") else { return line }
            return String(line[line.index(after: space)...])
        }
    }
}

@Suite struct LogTests {
    /// A line is `ts`, `level`, `event`, then the fields in the order given.
    @Test func writesOneLogfmtLinePerEvent() {
        let sink = LineSink()
        sink.log(.debug).info("http.listening", ["host": "127.0.0.1", "port": "9000"])
        #expect(sink.withoutTimestamps == ["level=info event=http.listening host=127.0.0.1 port=9000"])
        let timestamp = sink.all[0].prefix { $0 != " " }
        #expect(timestamp.count == "ts=2026-11-21T06:00:00.123Z".count && timestamp.hasSuffix("Z"))
    }

    /// Lines below the level are dropped, and their fields are never built.
    @Test func dropsLinesBelowItsLevelWithoutEvaluatingFields() {
        let sink = LineSink()
        let log = sink.log(.warning)
        let evaluated = Mutex(0)
        func fields() -> KeyValuePairs<String, String> {
            evaluated.withLock { $0 += 1 }
            return ["k": "v"]
        }
        log.debug("a", fields())
        log.info("b", fields())
        log.warning("c", fields())
        log.error("d")
        log.critical("e")
        #expect(
            sink.withoutTimestamps == ["level=warning event=c k=v", "level=error event=d", "level=critical event=e"])
        #expect(evaluated.withLock { $0 } == 1)
    }

    /// A value that could end the line or forge a field is quoted and escaped; a bare word is left alone.
    @Test(arguments: [
        ("plain", "plain"),
        ("", #""""#),
        ("two words", #""two words""#),
        ("a=b", #""a=b""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"C:\path"#, #""C:\\path""#),
        ("line\nbreak", #""line\nbreak""#),
        ("cr\r\nlf", #""cr\r\nlf""#),
        ("tab\there", #""tab\there""#),
        ("bell\u{7}", #""bell\u{7}""#),
        ("ünïcødé", "ünïcødé"),
    ])
    func quotesValuesThatNeedIt(value: String, expected: String) {
        #expect(Log.quoted(value) == expected)
    }

    @Test func formatsTimestampsAsUTCWithMilliseconds() {
        #expect(Log.timestamp(seconds: 0, nanoseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Log.timestamp(seconds: 1_795_240_800, nanoseconds: 123_999_999) == "2026-11-21T06:00:00.123Z")
        #expect(Log.timestamp(seconds: 951_825_599, nanoseconds: 5_000_000) == "2000-02-29T11:59:59.005Z")
    }

    @Test func parsesLevelNamesIgnoringCase() {
        #expect(LogLevel(name: "warning") == .warning)
        #expect(LogLevel(name: "DEBUG") == .debug)
        #expect(LogLevel(name: "verbose") == nil)
        #expect(LogLevel.allCases.sorted() == [.debug, .info, .warning, .error, .critical])
    }
}
