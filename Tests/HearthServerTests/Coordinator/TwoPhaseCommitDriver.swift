import HearthCluster
import HearthCore
import HearthTestKit
import HearthWire

@testable import HearthDatabase
@testable import HearthServer

/// Drives a `TwoPhaseCommit` through its steps with scripted answers, as the coordinator's shell would with real
/// shards, and keeps the transcript: each step given and the answer fed back.
struct TwoPhaseCommitDriver {
    static let router = ShardRouter(shardCount: 4, shardDepth: 2)
    /// A call certainly not carried out (no leader), and one whose answer was lost (timed out).
    static let refused = ShardCallError(shard: 0, kind: .noLeader, waited: .zero)
    static let lost = ShardCallError(shard: 0, kind: .timedOut("n2"), waited: .seconds(1))

    var machine: TwoPhaseCommit
    /// Every step the machine gave, with the answer it got (nil for the end).
    var transcript: [(step: TwoPhaseCommit.Step, event: TwoPhaseCommit.Event?)] = []

    /// A deep update over shards 1 and 3 (anchor 3), nothing to read; with `condition`, a compare-and-set on
    /// shard 1's path (expecting it empty) that locks and reads both first; `together` as on a single node.
    static func write(condition: Bool = false, together: Bool = false) throws -> TwoPhaseCommitDriver {
        guard let keys = Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [3, 1]) else {
            throw TestClientError(description: "no keys for shards 3 and 1")
        }
        let conditions =
            condition ? [WriteCondition(path: Fixture.path("posts/\(keys[1])/n"), expectedHash: "")] : []
        let machine = TwoPhaseCommit(
            transaction: TransactionID(rawValue: 7), namespace: "default",
            mutations: [try Fixture.set("posts/\(keys[0])/n", "1"), try Fixture.set("posts/\(keys[1])/n", "2")],
            conditions: conditions, now: 1, router: Self.router, together: together)
        return TwoPhaseCommitDriver(machine: machine)
    }

    /// A position in `shard`'s log.
    static func position(_ shard: Int, _ index: UInt64 = 5) -> ShardLogPosition {
        ShardLogPosition(shard: shard, index: index, sequence: index, term: 1)
    }

    /// The answer a healthy shard gives `step`.
    static func success(_ step: TwoPhaseCommit.Step) -> TwoPhaseCommit.Event {
        switch step {
        case .commitTogether(_, let parts):
            .committedTogether(
                .committed(parts.map { Self.position($0.shard) }, parts.map { _ in ShardEdits(edits: []) }))
        case .lock(_, let paths): .locked(ShardReadLock(nodes: paths.map { _ in .empty }, through: 3, term: 2))
        case .confirmRefusal: .refusalConfirmed(true)
        case .prepare(let shard, _, _): .prepared(.prepared(Self.position(shard)))
        case .waitUntilOrdered: .ordered
        case .decide(let anchor, _, _): .decided(.logged(Self.position(anchor), []))
        case .finish(let shard, commit: true): .finished((Self.position(shard), []))
        case .finish: .finished(nil)
        case .unlock: .released
        case .pauseBeforeRerun: .paused
        case .end: .released
        }
    }

    /// Runs until the end, answering each step with `answer` (nil: as a healthy shard would).
    mutating func run(_ answer: (TwoPhaseCommit.Step) -> TwoPhaseCommit.Event?) -> TwoPhaseCommit.End? {
        var step = self.machine.begin()
        for _ in 0..<64 {
            if case .end(let end) = step {
                self.transcript.append((step, nil))
                return end
            }
            let event = answer(step) ?? Self.success(step)
            self.transcript.append((step, event))
            step = self.machine.next(after: event)
        }
        return nil
    }

    /// The steps given, in order, as short names (`prepare 1`, `abort 1`, `end committed`…).
    var names: [String] {
        self.transcript.map { Self.name($0.step) }
    }

    static func name(_ step: TwoPhaseCommit.Step) -> String {
        switch step {
        case .commitTogether: "together"
        case .lock(let shard, _): "lock \(shard)"
        case .confirmRefusal(let shard, _): "confirm \(shard)"
        case .prepare(let shard, _, _): "prepare \(shard)"
        case .waitUntilOrdered(let positions): "order \(positions.map(\.shard))"
        case .decide(let anchor, _, _): "decide \(anchor)"
        case .finish(let shard, commit: true): "finish \(shard)"
        case .finish(let shard, commit: false): "abort \(shard)"
        case .unlock(let shard): "unlock \(shard)"
        case .pauseBeforeRerun: "pause"
        case .end(.committed(_, _, let forgetAt)): "end committed forget \(forgetAt.map(String.init) ?? "-")"
        case .end(.stale): "end stale"
        case .end(.duplicate): "end duplicate"
        case .end(.rerun(let escalated, let reruns)): "end rerun \(escalated ? "escalated" : "\(reruns)")"
        case .end(.failed(let error)): "end failed \(type(of: error))"
        }
    }
}
