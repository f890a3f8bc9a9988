import HearthNet

/// Reads every node's `/.metrics` (Prometheus text), before a run and after it, for the report's server figures.
enum ServerMetrics {
    /// What asking one node gave.
    enum Scrape: Sendable {
        case text(String)
        /// Why the metrics could not be read.
        case failed(String)
    }

    /// Each node's metrics text, or why it could not be read; asked of all nodes at once, each within `timeout`.
    static func scrape(_ nodes: [StarsOptions.Node], timeout: Duration = .seconds(2)) async -> [Scrape] {
        await withTaskGroup(of: (Int, Scrape).self) { group in
            for (index, node) in nodes.enumerated() {
                group.addTask { (index, Self.read(node, timeout: timeout)) }
            }
            var results = [Scrape](repeating: .failed("not asked"), count: nodes.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    /// The figures of each node between two scrapes.
    static func figures(
        _ nodes: [StarsOptions.Node], before: [Scrape], after: [Scrape]
    ) -> [ServerFigures] {
        zip(nodes, zip(before, after)).map { node, scrapes in
            switch scrapes {
            case (.text(let start), .text(let end)):
                return ServerFigures(node: node.description, before: start, after: end)
            case (.failed(let why), _), (_, .failed(let why)):
                return ServerFigures(node: node.description, failure: why)
            }
        }
    }

    private static func read(_ node: StarsOptions.Node, timeout: Duration) -> Scrape {
        do {
            let response = try BlockingHTTPClient(timeout: timeout).request("GET", try node.socketAddress, "/.metrics")
            guard response.status == 200 else {
                return .failed("/.metrics answered \(response.status)")
            }
            return .text(String(decoding: response.body, as: UTF8.self))
        } catch {
            return .failed("/.metrics could not be read: \(error)")
        }
    }
}

extension StarsOptions.Node {
    /// The node's address as sockets take it (an IPv6 host in brackets).
    var socketAddress: SocketAddress {
        get throws(IOError) {
            try SocketAddress(parsing: self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self)")
        }
    }
}
