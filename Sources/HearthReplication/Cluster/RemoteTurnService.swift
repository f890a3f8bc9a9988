import HearthCluster
import HearthDatabase
import HearthSystem
import Synchronization

/// The leading node's side of `ClusterConditionalWriteTurns`: runs the turn commands other nodes send for locations
/// whose shard this node leads, on this node's own gate, so their callers wait in the same line as this node's.
///
/// Each remote caller (a node and its connection number) gets a caller number of its own here, with bit 62 set and
/// bit 63 clear: HTTP connections count up from 2 and realtime sessions set bit 63, so the numbers never meet. A
/// node that goes away never says its callers closed: they are closed when its connection drops (`peerLost`), and the
/// table is bounded: past `maximumCallers` it starts over, and a caller then only loses its place in line (turns
/// decide who goes first, never whether a write is correct).
final class RemoteTurnService: Sendable {
    private struct Caller: Hashable {
        var node: NodeID
        var connection: UInt64
    }

    static let maximumCallers = 65_536
    private static let callerBit: UInt64 = 1 << 62

    let gate: ConditionalWriteGate
    private let callers = Lock<[Caller: UInt64]>([:])
    private let lastCaller = Atomic<UInt64>(0)

    init(gate: ConditionalWriteGate) {
        self.gate = gate
    }

    /// Runs `command` from `peer`; an admission is answered once the compare-and-set may write.
    func run(_ command: ShardCall.TurnCommand, from peer: NodeID) async -> ShardReply.Outcome {
        switch command {
        case .admit(let caller, let target, let etag):
            let connection = self.number(Caller(node: peer, connection: caller))
            return .turnAdmitted(
                request: await self.gate.admitRequest(connection: connection, target: target, etag: etag))
        case .answered(let request, let answer):
            self.gate.answered(request: request, answer)
        case .read(let caller, let target):
            self.gate.read(connection: self.number(Caller(node: peer, connection: caller)), target: target)
        case .callerClosed(let caller):
            if let number = self.callers.withLock({ $0.removeValue(forKey: Caller(node: peer, connection: caller)) }) {
                self.gate.connectionClosed(number)
            }
        }
        return .nothingToDo
    }

    /// The connection to `peer` was lost: its callers are closed here at once (it may have died, and a dead node
    /// never says its callers closed), so a compare-and-set of theirs that was running no longer holds its lane and
    /// the others' turns come now. A caller of a node that only reconnected loses its place in line, nothing else.
    func peerLost(_ peer: NodeID) {
        let numbers = self.callers.withLock { callers -> [UInt64] in
            let lost = callers.filter { $0.key.node == peer }
            for caller in lost.keys { callers[caller] = nil }
            return Array(lost.values)
        }
        for number in numbers { self.gate.connectionClosed(number) }
    }

    /// Remote callers known now.
    var callerCount: Int { self.callers.withLock { $0.count } }

    private func number(_ caller: Caller) -> UInt64 {
        self.callers.withLock { callers in
            if let number = callers[caller] { return number }
            if callers.count >= Self.maximumCallers { callers.removeAll() }
            let number = self.lastCaller.add(1, ordering: .relaxed).newValue | Self.callerBit
            callers[caller] = number
            return number
        }
    }
}
