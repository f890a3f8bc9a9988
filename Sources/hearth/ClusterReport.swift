import HearthCluster
import HearthCore

/// The cluster as `hearth cluster status` shows it, merged from what every member answered: each member's health,
/// how the others' membership sees it and its own links, and each shard's leader, term, commit index and lag.
///
/// It is a pure value built from probes, so what counts as a problem is decided in one place: a member that is
/// down, failing, not ready or answering for another cluster, and a shard without a leader. A cluster with no
/// problem is healthy (`hearth cluster status` exits 0); views that disagree on a shard's leader or term are shown
/// but are not a problem by themselves, since they are normal for the moment an election takes.
struct ClusterReport {
    /// A member's health as the report shows it.
    enum State: String {
        /// Alive and ready: it serves every shard.
        case up
        /// Alive but not ready (catching up, or a shard it hosts has no leader); a load balancer skips it.
        case unready
        /// The process answers but says it cannot make writes durable.
        case failing
        /// Nothing answers at its address.
        case down
        /// Something else answers at its address: another node or another cluster.
        case foreign
    }

    /// One member's row.
    struct Member {
        let id: String
        let http: String
        let state: State
        /// Why it is not up, in the member's words or the client's.
        let reason: String?
        /// Where it is in its membership as the member list says (`active`, `joining`, `leaving`), or `-`.
        let membership: String
        /// The release it runs: as its own `/.cluster` says, else as another member's link to it last saw it (a
        /// member of release 0.1.0, or one that did not answer); `nil` when neither says.
        let release: String?
        /// Its SWIM status as each other member that answered sees it, by observer.
        let swim: [(observer: String, status: String)]
        /// Its peer links as its own view reports them.
        let links: [Link]
        /// Its `/.cluster` document, as received.
        let view: JSONValue?
    }

    /// One member's link to another, from its `/.cluster` member list.
    struct Link {
        let peer: String
        let isConnected: Bool
        let isPartitioned: Bool
        let reconnects: Int64
        let framesDropped: Int64
    }

    let name: String
    let shardCount: Int
    /// How many Raft groups hold the shards (`shards` lists one row per group).
    let groupCount: Int
    let replicationFactor: Int
    let members: [Member]
    let shards: [Shard]
    /// How many groups (shards and the member list) the members' placement gives, and how many are in place, as
    /// the first member that answered sees it; nil when none answered.
    let rebalancing: (groups: Int64, settled: Int64)?
    /// Everything that makes the cluster unhealthy, one sentence each.
    let problems: [String]

    var isHealthy: Bool { self.problems.isEmpty }

    init(cluster: ClusterConfiguration, probes: [MemberProbe]) {
        self.name = cluster.name
        self.shardCount = cluster.shards
        self.groupCount = cluster.groupCount
        self.replicationFactor = cluster.replicationFactor
        let members = probes.map { Self.member($0, cluster: cluster, others: probes) }
        let shards = Self.shards(cluster: cluster, members: members)
        self.members = members
        self.shards = shards
        self.rebalancing =
            probes.lazy.compactMap { probe -> (groups: Int64, settled: Int64)? in
                guard let groups = probe.view?["rebalancing"]?["groups"]?.intValue,
                    let settled = probe.view?["rebalancing"]?["settled"]?.intValue
                else { return nil }
                return (groups, settled)
            }.first
        self.problems = Self.memberProblems(members) + Self.shardProblems(shards)
    }

    private static func member(_ probe: MemberProbe, cluster: ClusterConfiguration, others: [MemberProbe]) -> Member {
        let id = probe.node.id.name
        let state: State
        var reason: String?
        switch probe.health {
        case .silent(let why):
            (state, reason) = (.down, why)
        case .failing(let why):
            (state, reason) = (.failing, why)
        case .alive:
            if let view = probe.view {
                let answersAs = (view["cluster"]?.stringValue ?? "?", view["node"]?.stringValue ?? "?")
                if answersAs != (cluster.name, id) {
                    (state, reason) = (
                        .foreign,
                        "it answers as node \(answersAs.1) of cluster \(answersAs.0), not \(id) of \(cluster.name)"
                    )
                } else if view["ready"]?.boolValue == true {
                    state = .up
                } else {
                    (state, reason) = (.unready, view["notReadyReason"]?.stringValue ?? "it does not say why")
                }
            } else {
                (state, reason) = (.unready, probe.problem ?? "it sent no /.cluster document")
            }
        }
        let view = state == .foreign ? nil : probe.view
        let swim = others.compactMap { other -> (observer: String, status: String)? in
            guard other.node.id != probe.node.id, let entries = other.view?["members"],
                case .array(let list) = entries,
                let entry = list.first(where: { $0["id"]?.stringValue == id }),
                let status = entry["status"]?.stringValue
            else { return nil }
            return (other.node.id.name, status)
        }
        let membership = Self.entries(for: id, in: others).compactMap { $0["membership"]?.stringValue }.first
        let release =
            view?["release"]?.stringValue
            ?? Self.entries(for: id, in: others.filter { $0.node.id != probe.node.id })
            .compactMap { $0["release"]?.stringValue }.first
        return Member(
            id: id, http: probe.http, state: state, reason: reason, membership: membership ?? "-",
            release: release, swim: swim, links: Self.links(of: id, view), view: view)
    }

    /// The entries for member `id` in the `/.cluster` member lists of `probes` that answered one, in probe order.
    private static func entries(for id: String, in probes: [MemberProbe]) -> [JSONValue] {
        probes.compactMap { probe in
            guard case .array(let list)? = probe.view?["members"] else { return nil }
            return list.first(where: { $0["id"]?.stringValue == id })
        }
    }

    private static func links(of id: String, _ view: JSONValue?) -> [Link] {
        guard case .array(let entries)? = view?["members"] else { return [] }
        return entries.compactMap { entry in
            guard let peer = entry["id"]?.stringValue, peer != id else { return nil }
            return Link(
                peer: peer, isConnected: entry["connected"]?.boolValue ?? false,
                isPartitioned: entry["partitioned"]?.boolValue ?? false,
                reconnects: entry["reconnects"]?.intValue ?? 0, framesDropped: entry["framesDropped"]?.intValue ?? 0)
        }
    }

    private static func memberProblems(_ members: [Member]) -> [String] {
        members.compactMap { member in
            let reason = member.reason ?? "no reason given"
            switch member.state {
            case .up: return nil
            case .unready: return "\(member.id) is not ready: \(reason)"
            case .failing: return "\(member.id) is failing: \(reason)"
            case .down: return "\(member.id) is down: \(reason)"
            case .foreign: return "\(member.id)'s address \(member.http) is taken: \(reason)"
            }
        }
    }

    private static func shardProblems(_ shards: [Shard]) -> [String] {
        let leaderless = shards.filter { $0.leader == nil }.map { "\($0.shard)" }
        switch leaderless.count {
        case 0: return []
        case 1: return ["shard \(leaderless[0]) has no leader"]
        default: return ["shards \(leaderless.joined(separator: ", ")) have no leader"]
        }
    }
}
