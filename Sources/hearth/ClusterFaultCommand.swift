import HearthCluster
import HearthCore
import HearthNet

/// `hearth cluster partition A B [C…]` and `hearth cluster heal`: fault injection through the members'
/// `POST /.cluster/partition` and `/.cluster/heal` (nodes started with `--fault-injection`).
///
/// A partition between A and B is posted to both sides, so each drops the other's frames. Each member's endpoint
/// replaces its set of cut-off peers, so the cuts a member already has (read from its `/.cluster`) are posted
/// again with the new ones: partitions add up until `heal`, which restores every link of every member.
enum ClusterFaultCommand {
    static func partition(_ options: ClusterOptions) throws -> Int32 {
        guard options.members.count >= 2, let isolated = options.members.first else {
            throw UsageError("cluster partition needs two or more members: A B [C…] cuts A off from each of B…")
        }
        let others = Array(options.members.dropFirst())
        guard !others.contains(isolated) else {
            throw UsageError("cluster partition cannot cut \(isolated) off from itself")
        }
        let client = options.client
        var cuts: [String: Set<String>] = [isolated: Set(others)]
        for other in others { cuts[other, default: []].insert(isolated) }
        var failed = false
        for id in cuts.keys.sorted() {
            guard let node = options.cluster.node(NodeID(id)), let new = cuts[id] else { continue }
            let peers = Self.partitionedPeers(of: node, client).union(new).sorted()
            let body = JSONValue.object(["peers": .array(peers.map { .string($0) })]).jsonBytes()
            switch Self.post(node, "/.cluster/partition", body, client) {
            case .done:
                print("\(id): cut off from \(peers.joined(separator: ", "))")
            case .silent(let reason), .refused(let reason):
                print("\(id): \(reason)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    static func heal(_ options: ClusterOptions) -> Int32 {
        let client = options.client
        var failed = false
        for node in options.cluster.nodes {
            switch Self.post(node, "/.cluster/heal", [], client) {
            case .done:
                print("\(node.id.name): healed")
            case .silent(let reason):
                print("\(node.id.name): skipped (a node starts with every link whole): \(reason)")
            case .refused(let reason):
                print("\(node.id.name): \(reason)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// The peers `node` drops frames of now, from its `/.cluster` (none when it does not say).
    private static func partitionedPeers(
        of node: ClusterConfiguration.Node, _ client: BlockingHTTPClient
    ) -> Set<String> {
        guard let address = try? SocketAddress(host: node.host, port: node.httpPort),
            let answer = try? client.request("GET", address, "/.cluster"), answer.status == 200,
            let view = try? JSONReader.parseValue(answer.body), case .array(let members)? = view["members"]
        else { return [] }
        return Set(
            members.compactMap { member in
                member["partitioned"]?.boolValue == true ? member["id"]?.stringValue : nil
            })
    }

    /// How a member took a fault-injection request.
    private enum Outcome {
        case done
        /// It did not answer (the reason).
        case silent(String)
        /// It answered with an error (fault injection off, an unknown peer).
        case refused(String)
    }

    /// Posts `body` to `target` on `node`.
    private static func post(
        _ node: ClusterConfiguration.Node, _ target: String, _ body: [UInt8], _ client: BlockingHTTPClient
    ) -> Outcome {
        let answer: HTTPResponse
        do {
            let address = try SocketAddress(host: node.host, port: node.httpPort)
            answer = try client.request("POST", address, target, body: body)
        } catch {
            return .silent("\(error)")
        }
        guard answer.status != 200 else { return .done }
        guard answer.status != 401 else { return .refused("Permission denied; " + ClusterOptions.credentialHint) }
        let message = (try? JSONReader.parseValue(answer.body))?["error"]?.stringValue
        return .refused("HTTP \(answer.status): \(message ?? answer.text)")
    }
}
