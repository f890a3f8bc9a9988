import Foundation
import HearthCluster
import HearthCore
import HearthNet

/// `hearth cluster remove ID`: asks the member list's leader to remove a member (any member points to it), then
/// follows the move of the member's replicas to the others until the member list drops it, printing the progress.
/// Exits 0 once the member is removed, 1 when it is refused or does not finish within `--within` seconds.
enum ClusterRemoveCommand {
    static func run(_ options: ClusterOptions, cluster: ClusterConfiguration) throws -> Int32 {
        guard options.members.count == 1, let name = options.members.first else {
            throw UsageError("cluster remove needs one member: the one to remove")
        }
        let client = options.client
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .seconds(options.waitSeconds)
        let others = cluster.nodes.filter { $0.id.name != name }
        guard Self.startRemoval(name, asking: others, client, until: deadline) else { return 1 }
        var lastProgress = ""
        while clock.now < deadline {
            let views = others.compactMap { ClusterMembers.view(of: $0, client) }
            if views.contains(where: { Self.hasRemoved(name, $0) }) {
                print("\(name) is removed: every shard moved off it, and the member list dropped it.")
                return 0
            }
            if let view = views.first, case .object(let rebalancing)? = view["rebalancing"],
                let groups = rebalancing["groups"]?.intValue, let settled = rebalancing["settled"]?.intValue
            {
                let progress = "moving replicas off \(name): \(settled) of \(groups) groups in place"
                if progress != lastProgress { print(progress) }
                lastProgress = progress
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        print(
            "\(name) is not removed after \(options.waitSeconds) s; see hearth cluster status (its replicas may "
                + "still be moving, or a shard may lack a majority).")
        return 1
    }

    /// Posts the removal to the members in turn, following a redirect to the member list's leader and retrying
    /// while there is none; true once a member said the node is leaving.
    private static func startRemoval(
        _ name: String, asking members: [ClusterConfiguration.Node], _ client: BlockingHTTPClient,
        until deadline: ContinuousClock.Instant
    ) -> Bool {
        let body = JSONValue.object(["node": .string(name)]).jsonBytes()
        var targets = members.compactMap { try? SocketAddress(host: $0.host, port: $0.httpPort) }
        var next = 0
        var lastProblem = "no member answered"
        while !targets.isEmpty, ContinuousClock.now < deadline {
            let address = targets[next % targets.count]
            next += 1
            guard let answer = try? client.request("POST", address, "/.cluster/remove", body: body) else {
                lastProblem = "\(address) did not answer"
                continue
            }
            let document = try? JSONReader.parseValue(answer.body)
            switch answer.status {
            case 202:
                print("\(name) is leaving: its replicas are moving to the other members.")
                return true
            case 421:
                lastProblem = "the member list's leader moved"
                if let leader = document?["leader"]?.stringValue.flatMap(ClusterMembers.split),
                    let leaderAddress = try? SocketAddress(host: leader.host, port: leader.port)
                {
                    targets = [leaderAddress] + targets.filter { $0 != leaderAddress }
                    next = 0
                    continue
                }
            case 401:
                print("refused: Permission denied; \(ClusterOptions.credentialHint)")
                return false
            case 400, 404, 409:
                print("refused: \(document?["error"]?.stringValue ?? "HTTP \(answer.status)")")
                return false
            default:
                lastProblem = document?["error"]?.stringValue ?? "HTTP \(answer.status)"
            }
            Thread.sleep(forTimeInterval: 0.3)
        }
        print("could not start removing \(name): \(lastProblem)")
        return false
    }

    /// Whether `view` lists `name` among the removed and not among the members.
    private static func hasRemoved(_ name: String, _ view: JSONValue) -> Bool {
        guard let removed = view["removed"].flatMap(ClusterMembers.strings), removed.contains(name) else {
            return false
        }
        guard case .array(let members)? = view["members"] else { return true }
        return !members.contains { $0["id"]?.stringValue == name }
    }
}
