import HearthCluster
import HearthNet
import HearthSystem
import HearthTestKit
import Testing

/// The join exchange over a real peer port: a node that knows only a member's address asks to join and gets the
/// member's answer (which hears the release the node named in its hello); a member that takes no members yet closes the connection.
@Suite struct PeerJoinLoopbackTests {
    typealias Harness = PeerTransportHarness

    static let newcomer = ClusterConfiguration.Node(id: "n4", host: "127.0.0.1", httpPort: 9004, peerPort: 9104)

    @Test(.timeLimit(.minutes(1))) func aJoiningNodeGetsTheMembersAnswer() async throws {
        let member = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        let founding = try ClusterConfiguration(
            name: "test",
            nodes: [ClusterConfiguration.Node(id: "n1", host: "127.0.0.1", httpPort: 9001, peerPort: member.port)],
            shards: 4, replicationFactor: 1)
        let releases = Lock<[HearthRelease]>([])
        member.setJoinHandler { request, release, reply in
            releases.withLock { $0.append(release) }
            guard let asked = try? JoinRequest(decoding: request) else { return }
            var list = MemberList(founding: founding)
            _ = list.apply(.add(asked.node), at: 1)
            reply(JoinReply.accepted(founding: founding, members: list).encoded())
        }
        let address = try SocketAddress(host: "127.0.0.1", port: member.port)
        let reply = try await onDedicatedThread {
            try PeerJoinClient.ask(
                address, JoinRequest(node: Self.newcomer), secret: Harness.secret, timeout: .seconds(10))
        }
        guard case .accepted(let received, let members) = reply else {
            Issue.record("the join was not accepted: \(reply)")
            return
        }
        #expect(received == founding)
        #expect(members.active == ["n1", "n4"])
        let older = HearthRelease(major: 0, minor: 2, patch: 0)
        _ = try await onDedicatedThread {
            try PeerJoinClient.ask(
                address, JoinRequest(node: Self.newcomer), secret: Harness.secret,
                release: PeerReleaseTag(release: older, minimumPeer: older), timeout: .seconds(10))
        }
        #expect(releases.withLock { $0 } == [HearthVersion.current, older])
        await member.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func aMemberThatTakesNoMembersYetClosesTheConnection() async throws {
        let member = try Harness.start(try Harness.configuration("n1"), inbox: FrameInbox())
        let address = try SocketAddress(host: "127.0.0.1", port: member.port)
        await #expect(throws: PeerJoinError.self) {
            _ = try await onDedicatedThread {
                try PeerJoinClient.ask(
                    address, JoinRequest(node: Self.newcomer), secret: Harness.secret, timeout: .seconds(10))
            }
        }
        await member.shutdown()
    }

    @Test func repliesSurviveTheirCodec() throws {
        let founding = try ClusterConfiguration(
            name: "c1", nodes: [ClusterConfiguration.Node(id: "n1", host: "::1", httpPort: 1, peerPort: 2)],
            shards: 3, replicationFactor: 1, shardDepth: 4)
        let replies: [JoinReply] = [
            .accepted(founding: founding, members: MemberList(founding: founding)),
            .redirect(host: "127.0.0.1", peerPort: 9102), .retry("an election is running"), .refused("taken"),
        ]
        for reply in replies {
            #expect(try JoinReply(decoding: reply.encoded()) == reply)
        }
        #expect(
            try JoinRequest(decoding: JoinRequest(node: Self.newcomer).encoded()) == JoinRequest(node: Self.newcomer))
    }
}
