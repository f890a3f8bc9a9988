import Foundation
import HearthSystem

/// When, where and with what a run ran, as the HTML report's header names it: the start in UTC, the load
/// generator's host, the versions of `hearth-bench` and of each node, and every option with its value.
public struct RunContext: Sendable, Equatable {
    /// The version `hearth-bench` reports of itself: the release `hearth --version` prints.
    public static let benchVersion = HearthVersion.release

    /// When the run started, as `2026-11-28T03:47:30Z`.
    public var startedUTC: String
    public var host: String
    public var benchVersion: String
    /// Each node's version as its `/.metrics` names it (`hearth_build_info{version="…"}`), or why it is unknown.
    public var nodeVersions: [String]

    public init(startedUTC: String, host: String, benchVersion: String, nodeVersions: [String]) {
        self.startedUTC = startedUTC
        self.host = host
        self.benchVersion = benchVersion
        self.nodeVersions = nodeVersions
    }

    /// The context of a run starting now on this machine, against nodes whose metrics text is `metrics`.
    static func now(nodes: [StarsOptions.Node], metrics: [ServerMetrics.Scrape]) -> RunContext {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let versions = zip(nodes, metrics).map { node, scrape in
            switch scrape {
            case .text(let text): "\(node): " + (Self.version(inMetrics: text) ?? "unknown (no hearth_build_info)")
            case .failed: "\(node): unknown (/.metrics unreadable)"
            }
        }
        return RunContext(
            startedUTC: formatter.string(from: Date()), host: ProcessInfo.processInfo.hostName,
            benchVersion: Self.benchVersion, nodeVersions: versions)
    }

    /// The `version` label of the `hearth_build_info` series in a node's metrics text, if it has one.
    static func version(inMetrics text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("hearth_build_info{") {
            guard let start = line.range(of: "version=\"")?.upperBound,
                let end = line[start...].firstIndex(of: "\"")
            else { continue }
            return String(line[start..<end])
        }
        return nil
    }
}
