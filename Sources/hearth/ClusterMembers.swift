import HearthCluster
import HearthCore
import HearthNet

/// The members a cluster has now: the configuration file names only the founding ones, so the others (nodes that
/// joined later) come from the member list a running member reports in its `/.cluster`, and the removed ones go.
enum ClusterMembers {
    /// `cluster` with its `nodes` replaced by the members the first answering member reports (the file's nodes
    /// when none answers, or when the answer cannot be used).
    static func discover(_ cluster: ClusterConfiguration, with client: BlockingHTTPClient) -> ClusterConfiguration {
        for node in cluster.nodes {
            guard let view = Self.view(of: node, client), case .array(let entries)? = view["members"] else { continue }
            let removed = Set((view["removed"].flatMap(Self.strings) ?? []).map { NodeID($0) })
            var nodes = Dictionary(cluster.nodes.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            for id in removed { nodes[id] = nil }
            for entry in entries {
                guard let id = entry["id"]?.stringValue, let http = entry["http"]?.stringValue.flatMap(Self.split),
                    let peer = entry["peer"]?.stringValue.flatMap(Self.split)
                else { continue }
                nodes[NodeID(id)] = ClusterConfiguration.Node(
                    id: NodeID(id), host: http.host, httpPort: http.port, peerPort: peer.port)
            }
            let ordered =
                cluster.nodes.compactMap { nodes.removeValue(forKey: $0.id) }
                + nodes.values.sorted { $0.id < $1.id }
            guard
                let discovered = try? ClusterConfiguration(
                    name: cluster.name, nodes: ordered, shards: cluster.shards, groups: cluster.groups,
                    replicationFactor: min(cluster.replicationFactor, ordered.count), shardDepth: cluster.shardDepth,
                    dataDirectory: cluster.dataDirectory)
            else { continue }
            return discovered
        }
        return cluster
    }

    /// `node`'s `/.cluster` document, if it answers one.
    static func view(of node: ClusterConfiguration.Node, _ client: BlockingHTTPClient) -> JSONValue? {
        guard let address = try? SocketAddress(host: node.host, port: node.httpPort),
            let answer = try? client.request("GET", address, "/.cluster"), answer.status == 200
        else { return nil }
        return try? JSONReader.parseValue(answer.body)
    }

    /// `host:port` or `[v6]:port` as its parts.
    static func split(_ address: String) -> (host: String, port: Int)? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
            return nil
        }
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let items) = value else { return nil }
        return items.compactMap(\.stringValue)
    }
}
