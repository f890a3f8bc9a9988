import HearthWire

/// One node the client can connect to: `ws://host:port` or `wss://host:port`, and the realtime URL built from it
/// (reference §1.1): `/.ws?v=5&ns=<namespace>`, plus `&ls=<last session id>` when reconnecting.
///
/// A client given several nodes (a cluster) holds one endpoint per node and tries them in turn.
package struct RealtimeEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// `wss` (TLS) rather than `ws`.
    package var isSecure: Bool
    package var host: String
    package var port: Int

    package init(host: String, port: Int, isSecure: Bool = false) {
        self.host = host
        self.port = port
        self.isSecure = isSecure
    }

    /// Reads `ws://host:port`, `wss://host[:port]`, or the database URL forms `http://host:port` and
    /// `https://host` (mapped to `ws` and `wss`); a path or query after the authority is ignored. IPv6 hosts are
    /// written in brackets.
    ///
    /// - Throws: `RealtimeConnectionError.invalidURL` naming the expected form.
    package init(parsing url: String) throws(RealtimeConnectionError) {
        let schemes = ["ws://": false, "http://": false, "wss://": true, "https://": true]
        guard let (prefix, isSecure) = schemes.first(where: { url.lowercased().hasPrefix($0.key) }) else {
            throw Self.invalid(url)
        }
        let rest = url.dropFirst(prefix.count)
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" })
        guard let endpoint = Self(authority: authority, isSecure: isSecure) else { throw Self.invalid(url) }
        self = endpoint
    }

    /// Reads `host` or `host:port` (`[v6]:port`), as a reset message (`r`) names a host; the port defaults to
    /// the scheme's. `nil` when the text is no host.
    package init?(authority: String, isSecure: Bool) {
        let defaultPort = isSecure ? 443 : 80
        var host = Substring(authority)
        var port = defaultPort
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port, isSecure: isSecure)
    }

    /// `host:port`, with an IPv6 host in brackets: what the `Host` header carries.
    package var authority: String {
        self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    }

    /// The request target of the realtime endpoint: `/.ws?v=5&ns=<namespace>[&ls=<session>]`.
    package func target(namespace: String, lastSessionID: String?) -> String {
        var target = "/.ws?v=\(WireHandshake.protocolVersion)&ns=\(namespace)"
        if let lastSessionID { target += "&ls=\(lastSessionID)" }
        return target
    }

    /// The whole realtime URL, e.g. `ws://127.0.0.1:9000/.ws?v=5&ns=demo`.
    package func url(namespace: String, lastSessionID: String?) -> String {
        self.url(target: self.target(namespace: namespace, lastSessionID: lastSessionID))
    }

    /// This endpoint's URL with `target` as path and query.
    package func url(target: String) -> String {
        "\(self.description)\(target)"
    }

    package var description: String { "\(self.isSecure ? "wss" : "ws")://\(self.authority)" }

    private static func invalid(_ url: String) -> RealtimeConnectionError {
        RealtimeConnectionError(
            .invalidURL,
            "\"\(url)\" is not a database URL; write ws://host:port, wss://host or http://host:port."
        )
    }
}
