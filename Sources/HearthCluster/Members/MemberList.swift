/// The cluster's members as the member-list group (`RaftGroupID.members`) has committed them: a pure, deterministic
/// state machine that every node applies from the same log, so every node derives the same placement from it.
///
/// It starts from the founding configuration's nodes (the file the founding members were started with) and changes
/// only through `apply(_:at:)`: a node joins (`add`), a member starts leaving (`leave`: the placement stops counting
/// it and its replicas move off) and, once none is left, is removed (`remove`), leaving a tombstone that says at which
/// index of the member-list log it went.
///
/// Rules, checked at apply time on every replica (so two conflicting proposals cannot both win):
/// - ids are unique among members, and no two members share a listener (`host:port`, HTTP or peer);
/// - one member leaves at a time, and never so many that fewer active members remain than the replication factor
///   (a shard could no longer have its replicas);
/// - a removed id may join again (a new node under an old name): the tombstone goes.
public struct MemberList: Sendable, Equatable {
    /// Where a member is in its membership.
    public enum Status: UInt8, Sendable, Equatable, CustomStringConvertible {
        /// Counted by the placement.
        case active = 1
        /// Not counted by the placement any more; its replicas are moving to the others.
        case leaving = 2

        public var description: String { self == .active ? "active" : "leaving" }
    }

    /// One member: its addresses and status.
    public struct Member: Sendable, Equatable {
        public var node: ClusterConfiguration.Node
        public var status: Status

        public init(node: ClusterConfiguration.Node, status: Status) {
            self.node = node
            self.status = status
        }

        public var id: NodeID { self.node.id }
    }

    /// The members, active and leaving, sorted by id.
    public private(set) var members: [Member]
    /// Members that were removed, with the index of the member-list log entry that removed them.
    public private(set) var removed: [NodeID: UInt64]
    /// Replicas per shard: the fewest active members the list may keep.
    public let replicationFactor: Int

    /// The list a cluster is founded with: every node of the configuration, active.
    public init(founding configuration: ClusterConfiguration) {
        self.init(
            members: configuration.nodes.map { Member(node: $0, status: .active) }, removed: [:],
            replicationFactor: configuration.replicationFactor)
    }

    public init(members: [Member], removed: [NodeID: UInt64], replicationFactor: Int) {
        self.members = members.sorted { $0.id < $1.id }
        self.removed = removed
        self.replicationFactor = replicationFactor
    }

    /// The member named `id`, active or leaving.
    public func member(_ id: NodeID) -> Member? {
        self.members.first { $0.id == id }
    }

    /// The active members' ids, sorted: what the placement is computed over.
    public var active: [NodeID] { self.members.filter { $0.status == .active }.map(\.id) }

    /// The leaving members' ids, sorted.
    public var leaving: [NodeID] { self.members.filter { $0.status == .leaving }.map(\.id) }

    /// Applies `change`, committed at `index` of the member-list log; a change that breaks a rule leaves the list as
    /// it was and says why.
    public mutating func apply(_ change: MemberChange, at index: UInt64) -> MemberChangeOutcome {
        if let refusal = self.refusal(of: change) { return .refused(refusal) }
        switch change {
        case .add(let node):
            // `refusal` let an existing id through only with the same addresses, active: the join is done.
            guard self.member(node.id) == nil else { return .unchanged }
            self.removed[node.id] = nil
            self.members.append(Member(node: node, status: .active))
            self.members.sort { $0.id < $1.id }
        case .leave(let id):
            guard let position = self.members.firstIndex(where: { $0.id == id }),
                self.members[position].status == .active
            else { return .unchanged }
            self.members[position].status = .leaving
        case .remove(let id):
            self.members.removeAll { $0.id == id }
            self.removed[id] = index
        }
        return .changed
    }

    /// Why `change` cannot be applied to the list as it stands, or nil when it can (including when it changes
    /// nothing). Proposers check it first, to refuse at once what the log would refuse anyway.
    public func refusal(of change: MemberChange) -> String? {
        switch change {
        case .add(let node):
            return self.addRefusal(node)
        case .leave(let id):
            return self.leaveRefusal(id)
        case .remove(let id):
            guard let member = self.member(id) else { return "\(id) is not a member." }
            guard member.status == .leaving else {
                return "\(id) is active; it must leave first (hearth cluster remove \(id)), so its replicas move off."
            }
            return nil
        }
    }

    private func addRefusal(_ node: ClusterConfiguration.Node) -> String? {
        do {
            try node.validate(field: "the joining node")
        } catch {
            return error.message
        }
        if let existing = self.member(node.id) {
            if existing.status == .leaving {
                return "\(node.id) is leaving the cluster; wait until it is removed, then join it again."
            }
            if existing.node != node {
                return "\(node.id) is already a member at \(Self.describe(existing.node)); pick another --node name, "
                    + "or join with the same addresses to restart it."
            }
            return nil
        }
        for member in self.members {
            for (what, port) in [("HTTP", node.httpPort), ("peer", node.peerPort)] {
                let address = "\(node.host):\(port)"
                if address == "\(member.node.host):\(member.node.httpPort)"
                    || address == "\(member.node.host):\(member.node.peerPort)"
                {
                    return "The \(what) address \(address) of \(node.id) is already \(member.id)'s; give the new "
                        + "node ports of its own."
                }
            }
        }
        return nil
    }

    private func leaveRefusal(_ id: NodeID) -> String? {
        guard let member = self.member(id) else {
            return "\(id) is not a member; the members are \(self.members.map(\.id.name).joined(separator: ", "))."
        }
        guard member.status == .active else { return nil }
        if let other = self.leaving.first {
            return "\(other) is still leaving; wait until it is removed (hearth cluster status) before removing "
                + "\(id)."
        }
        let remaining = self.active.count - 1
        guard remaining >= self.replicationFactor else {
            return "Removing \(id) would leave \(remaining) active member\(remaining == 1 ? "" : "s"), fewer than "
                + "the replication factor \(self.replicationFactor) needs; add a member first "
                + "(hearth serve --join), then remove \(id)."
        }
        return nil
    }

    static func describe(_ node: ClusterConfiguration.Node) -> String {
        "\(node.host) (HTTP \(node.httpPort), peer \(node.peerPort))"
    }
}
