import Foundation
import HearthCore

/// What a run left in the database: the paths it wrote (each holding the run's data alone), and whether
/// `--cleanup` removed them; the report ends with it, so nobody finds a run's posts later without knowing whose.
public struct RunLeftovers: Sendable, Equatable {
    /// The paths the run wrote below (`StarWorkload.writtenPaths`).
    public var paths: [String]
    /// The paths in words (`posts/$run-p* and user-posts/$run-a*`).
    public var pattern: String
    /// Whether `--cleanup` removed every path.
    public var isRemoved = false
    /// Why `--cleanup` could not remove them.
    public var failure: String?

    public init(paths: [String], pattern: String) {
        self.paths = paths
        self.pattern = pattern
    }

    /// The report's closing lines: what was removed, or what is left and the command that removes it from `node`.
    public func lines(node: StarsOptions.Node, namespace: String) -> [String] {
        let count = "\(self.paths.count) path(s) (\(self.pattern))"
        if self.isRemoved { return ["cleanup      removed the run's \(count)"] }
        let head =
            self.failure.map { "cleanup      FAILED (\($0)): \(count) left; remove them with:" }
            ?? "left behind  \(count); --cleanup removes a run's paths at its end; remove these with:"
        return [head, "  " + self.removal(node: node, namespace: namespace)]
    }

    /// A `curl` that sets every path to null in one multi-path update at the root, through `node`'s REST API.
    public func removal(node: StarsOptions.Node, namespace: String) -> String {
        let body = JSONValue.object(Dictionary(uniqueKeysWithValues: self.paths.map { (JSONKey($0), JSONValue.null) }))
        let host = node.host.contains(":") ? "[\(node.host)]" : node.host
        let url = "http://\(host):\(node.port)/.json?ns=\(namespace)"
        return "curl -X PATCH \(Self.quoted(url)) -H 'Content-Type: application/json' -d "
            + Self.quoted(String(decoding: body.jsonBytes(), as: UTF8.self))
    }

    /// `text` in single quotes for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
