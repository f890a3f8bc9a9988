/// The line printed once a second while a run goes: a bar for the duration on a terminal (redrawn in place),
/// a plain line otherwise.
public enum ProgressLine {
    public static func render(second: StarReport.Second, of total: Int, tally: StarTally, isTerminal: Bool) -> String {
        let figures =
            "\(second.operations) ops/s  p50 \(StarReport.format(second.p50Milliseconds)) ms  "
            + "p99 \(StarReport.format(second.p99Milliseconds)) ms  retries \(tally.retries)  errors \(tally.errorCount)"
            + (tally.connectionFailures > 0 ? "  failed connects \(tally.connectionFailures)" : "")
        guard isTerminal else { return "\(second.second)/\(total) s: \(figures)" }
        let width = 20
        let done = total > 0 ? min(width, second.second * width / total) : width
        let bar = String(repeating: "#", count: done) + String(repeating: "-", count: width - done)
        return "\r[\(bar)] \(second.second)/\(total) s  \(figures)\u{1B}[K"
    }
}
