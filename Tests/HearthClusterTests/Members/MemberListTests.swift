import HearthCluster
import HearthCore
import Testing

/// The member list as a state machine: joins, a leave then a removal, the rules it refuses by, and its codecs.
@Suite struct MemberListTests {
    static func node(_ id: String, _ number: Int) -> ClusterConfiguration.Node {
        ClusterConfiguration.Node(id: NodeID(id), host: "127.0.0.1", httpPort: 9000 + number, peerPort: 9100 + number)
    }

    static func founding(_ count: Int = 3, replicationFactor: Int = 3) throws -> MemberList {
        MemberList(
            founding: try ClusterConfiguration(
                nodes: (1...count).map { Self.node("n\($0)", $0) }, shards: 8, replicationFactor: replicationFactor))
    }

    @Test func foundingMembersAreActive() throws {
        let list = try Self.founding()
        #expect(list.active == ["n1", "n2", "n3"])
        #expect(list.leaving.isEmpty)
        #expect(list.removed.isEmpty)
    }

    @Test func aJoinAddsAnActiveMemberAndAskingAgainChangesNothing() throws {
        var list = try Self.founding()
        #expect(list.apply(.add(Self.node("n4", 4)), at: 5) == .changed)
        #expect(list.active == ["n1", "n2", "n3", "n4"])
        #expect(list.apply(.add(Self.node("n4", 4)), at: 6) == .unchanged)
        #expect(list.active.count == 4)
    }

    @Test func aJoinIsRefusedForATakenNameOrAddress() throws {
        var list = try Self.founding()
        let sameName = ClusterConfiguration.Node(id: "n2", host: "127.0.0.1", httpPort: 9500, peerPort: 9600)
        guard case .refused(let message) = list.apply(.add(sameName), at: 1) else {
            Issue.record("a second n2 was accepted")
            return
        }
        #expect(message.contains("already a member"))
        let samePort = ClusterConfiguration.Node(id: "n9", host: "127.0.0.1", httpPort: 9500, peerPort: 9102)
        guard case .refused(let clash) = list.apply(.add(samePort), at: 2) else {
            Issue.record("a node on n2's peer port was accepted")
            return
        }
        #expect(clash.contains("n2"))
        let badName = ClusterConfiguration.Node(id: "-x", host: "127.0.0.1", httpPort: 9500, peerPort: 9600)
        #expect(list.refusal(of: .add(badName)) != nil)
        #expect(list.active == ["n1", "n2", "n3"])
    }

    @Test func aMemberLeavesThenIsRemovedWithATombstone() throws {
        var list = try Self.founding(4)
        #expect(list.apply(.remove("n4"), at: 3) != .changed)
        #expect(list.apply(.leave("n4"), at: 4) == .changed)
        #expect(list.active == ["n1", "n2", "n3"])
        #expect(list.leaving == ["n4"])
        #expect(list.apply(.leave("n4"), at: 5) == .unchanged)
        #expect(list.apply(.remove("n4"), at: 9) == .changed)
        #expect(list.member("n4") == nil)
        #expect(list.removed == ["n4": 9])
        // The name may join again, as a new node.
        #expect(list.apply(.add(Self.node("n4", 4)), at: 12) == .changed)
        #expect(list.removed.isEmpty)
    }

    @Test func leavingIsRefusedBelowTheReplicationFactorAndOneAtATime() throws {
        var three = try Self.founding(3)
        guard case .refused(let message) = three.apply(.leave("n2"), at: 1) else {
            Issue.record("a leave below the replication factor was accepted")
            return
        }
        #expect(message.contains("replication factor 3"))
        var five = try Self.founding(5)
        #expect(five.apply(.leave("n5"), at: 1) == .changed)
        guard case .refused(let second) = five.apply(.leave("n4"), at: 2) else {
            Issue.record("a second leave was accepted while one is in progress")
            return
        }
        #expect(second.contains("n5 is still leaving"))
        #expect(five.apply(.leave("n9"), at: 3) != .changed)
    }

    @Test func listAndChangesSurviveTheirCodecs() throws {
        var list = try Self.founding(5)
        _ = list.apply(.add(Self.node("n6", 6)), at: 2)
        _ = list.apply(.leave("n5"), at: 3)
        _ = list.apply(.leave("n1"), at: 4)
        _ = list.apply(.remove("n5"), at: 7)
        _ = list.apply(.leave("n1"), at: 8)
        #expect(try MemberList(decoding: list.encoded()) == list)
        for change in [MemberChange.add(Self.node("n7", 7)), .leave("n2"), .remove("n3")] {
            #expect(try MemberChange(decoding: change.encoded()) == change)
        }
        #expect(throws: BinaryDecodingError.self) { try MemberChange(decoding: [1, 9]) }
        #expect(throws: BinaryDecodingError.self) { try MemberList(decoding: Array(list.encoded().dropLast())) }
    }

    /// Founding targets are the placement's founding groups plus the member-list group; after a join every group's
    /// target counts the newcomer, and about its share of the shards gain it as a voter.
    @Test func targetsFollowThePlacement() throws {
        var list = try Self.founding(3)
        let founding = list.targets(shardCount: 8)
        let placement = ShardPlacement(members: ["n1", "n2", "n3"], shardCount: 8, replicationFactor: 3)
        for (group, membership) in placement.foundingGroups {
            #expect(founding[group] == membership)
        }
        #expect(founding[.members] == RaftMembership(voters: ["n1", "n2", "n3"]))
        _ = list.apply(.add(Self.node("n4", 4)), at: 1)
        let after = list.targets(shardCount: 8)
        #expect(after.values.allSatisfy { $0.isMember("n4") })
        let voting = (0..<8).filter { after[RaftGroupID(UInt32($0))]?.isVoter("n4") == true }
        #expect(voting.count == 6)
        _ = list.apply(.leave("n1"), at: 2)
        let leaving = list.targets(shardCount: 8)
        #expect(leaving.filter { $0.key != .members }.values.allSatisfy { !$0.isMember("n1") })
        #expect(leaving[.members]?.learners.contains("n1") == true)
    }
}
