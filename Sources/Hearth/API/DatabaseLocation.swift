import Foundation
import HearthCore
import HearthWire

/// Where a `Database` lives: the nodes to connect to, in the order to try them, and the namespace.
///
/// Read from the URLs FirebaseDatabase takes: `https://name.firebaseio.com`, or an emulator's or Hearth node's
/// `http://127.0.0.1:9000?ns=name`, and `ws://` / `wss://` for the same. The namespace follows the rule the server
/// applies (`WireNamespace`): `ns`, else the host name's first label, else `default`.
struct DatabaseLocation: Sendable, Hashable {
    var endpoints: [RealtimeEndpoint]
    var namespace: String

    /// The namespace a node applies when neither `ns` nor the host names one (`hearth serve`'s default).
    static let defaultNamespace = "default"

    /// - Throws: `DatabaseValueError` naming the expected form.
    init(parsing url: String) throws(DatabaseValueError) {
        try self.init(urls: [url])
    }

    /// Several nodes of one cluster, tried in turn; they must name the same namespace.
    init(urls: [String]) throws(DatabaseValueError) {
        guard !urls.isEmpty else { throw DatabaseValueError("Give at least one database URL.") }
        var endpoints: [RealtimeEndpoint] = []
        var namespaces: Set<String> = []
        for url in urls {
            do {
                endpoints.append(try RealtimeEndpoint(parsing: url))
            } catch {
                throw DatabaseValueError(error.message)
            }
            let parts = Self.split(url)
            do {
                namespaces.insert(
                    try WireNamespace.resolve(
                        explicit: parts.namespace, host: parts.authority, default: Self.defaultNamespace))
            } catch {
                throw DatabaseValueError("\(error.description) (in \(url))")
            }
        }
        guard namespaces.count == 1, let namespace = namespaces.first else {
            throw DatabaseValueError(
                "The URLs name different databases (\(namespaces.sorted().joined(separator: ", "))); give the nodes "
                    + "of one database, with the same ns.")
        }
        self.endpoints = endpoints
        self.namespace = namespace
    }

    /// The URL of `path` in this database, as `DatabaseReference.url` shows it.
    func url(of path: Path) -> String {
        let endpoint = self.endpoints[0]
        let base = "\(endpoint.isSecure ? "https" : "http")://\(endpoint.authority)"
        let encoded = path.keys.map { $0.string.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "" }
        let query = WireNamespace.named(byHost: endpoint.host) == self.namespace ? "" : "?ns=\(self.namespace)"
        return base + "/" + encoded.joined(separator: "/") + query
    }

    /// The authority, the path and the `ns` parameter of a URL.
    static func split(_ url: String) -> (authority: String, path: String, namespace: String?) {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        let rest = afterScheme.dropFirst(authority.count)
        let path = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(path.count).dropFirst()
        var namespace: String?
        for parameter in query.split(separator: "&") where parameter.hasPrefix("ns=") {
            namespace = String(parameter.dropFirst(3))
        }
        return (String(authority), String(path), namespace)
    }
}
