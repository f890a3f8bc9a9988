import HearthCluster
import HearthSystem
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Which transactions the cluster's coordinators still run: a part no coordinator claims is an orphan, but only when
/// every member answered — a member that is silent may be running it.
@Suite struct TransactionClaimsTests {
    static let (a, b, c) = (TransactionID(rawValue: 1), TransactionID(rawValue: 2), TransactionID(rawValue: 3))

    /// Peers for a `ShardCalls`: each answers a claims call with what it runs, refuses frames (its connection is
    /// down), or never answers.
    final class Peers: Sendable {
        enum Behaviour: Sendable {
            case runs([TransactionID])
            case unreachable
            case silent
        }

        let behaviour: [NodeID: Behaviour]
        let calls = Mutex<ShardCalls?>(nil)

        init(_ behaviour: [NodeID: Behaviour]) { self.behaviour = behaviour }

        func send(_ peer: NodeID, _ bytes: [UInt8]) -> Bool {
            switch self.behaviour[peer] {
            case .runs(let running)?:
                guard let call = try? ShardCall(decoding: bytes), case .claims(let asked) = call.command else {
                    return true
                }
                let reply = ShardReply(id: call.id, outcome: .claimed(asked.filter { running.contains($0) }))
                let calls = self.calls.withLock { $0 }
                Task { calls?.receive(reply.encoded(), from: peer) }
                return true
            case .unreachable?, nil: return false
            case .silent?: return true
            }
        }
    }

    private static func ask(_ peers: Peers, local: [TransactionID]) async -> TransactionClaims {
        let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), send: peers.send)
        peers.calls.withLock { $0 = calls }
        let sweeping = Task { await calls.run() }
        defer { sweeping.cancel() }
        let running = RunningTransactions()
        for transaction in local { running.begin(transaction) }
        let question = ClaimsQuestion(
            node: "n1", running: running, calls: calls, members: { ["n1"] + peers.behaviour.keys.sorted() },
            timeout: .milliseconds(100))
        return await question.ask([Self.a, Self.b, Self.c])
    }

    @Test func runningTransactionsAreClaimedUntilTheyEnd() {
        let running = RunningTransactions()
        running.begin(Self.a)
        running.begin(Self.b)
        running.end(Self.a)
        #expect(running.claimed(among: [Self.a, Self.b, Self.c]) == [Self.b])
        #expect(running.count == 1)
    }

    @Test func onlyACompleteAnswerNamesOrphans() {
        let complete = TransactionClaims(claimed: [Self.b], isComplete: true)
        #expect(complete.orphans(among: [Self.a, Self.b, Self.c]) == [Self.a, Self.c])
        let incomplete = TransactionClaims(claimed: [Self.b], isComplete: false)
        #expect(incomplete.orphans(among: [Self.a, Self.b, Self.c]).isEmpty)
        #expect(TransactionClaims.unknown.orphans(among: [Self.a]).isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func everyMemberIsAskedAndAnUnreachableOneClaimsNothing() async {
        let claims = await Self.ask(Peers(["n2": .runs([Self.b]), "n3": .unreachable]), local: [Self.a])
        #expect(claims == TransactionClaims(claimed: [Self.a, Self.b], isComplete: true))
        #expect(claims.orphans(among: [Self.a, Self.b, Self.c]) == [Self.c])
    }

    @Test(.timeLimit(.minutes(1))) func aSilentMemberLeavesTheAnswerIncomplete() async {
        let claims = await Self.ask(Peers(["n2": .runs([]), "n3": .silent]), local: [])
        #expect(!claims.isComplete)
        #expect(claims.orphans(among: [Self.a, Self.b, Self.c]).isEmpty)
    }
}
