import HearthCluster
import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Every shard call and reply survives its binary form, with priorities, server values and unicode intact.
@Suite struct ShardCallCodecTests {
    static let transaction = TransactionID(rawValue: 0xFEED_0000_0000_0042)

    static func node(_ json: String) throws -> Node {
        try WriteValue.parseWrite(Array(json.utf8), depth: 0).node
    }

    static func write() throws -> ShardWrite {
        ShardWrite(
            namespace: "app-1",
            mutations: [
                .set(
                    try Path(validating: "/posts/p1/stars/ü"), try WriteValue.parseWrite(Array("true".utf8), depth: 4)),
                .set(
                    try Path(validating: "/posts/p1/starCount"),
                    try WriteValue.parseWrite(Array(#"{".sv":{"increment":1}}"#.utf8), depth: 3)),
                .setPriority(try Path(validating: "/posts/p1"), WriteValue(node: Node(.int(5)))),
            ],
            now: 1_700_000_000_123)
    }

    /// The call's bytes, decoded and encoded again, are the same bytes (the encoding is canonical).
    private func roundTrips(_ command: ShardCall.Command) throws {
        let call = ShardCall(id: 77, shard: 513, command: command)
        let decoded = try ShardCall(decoding: call.encoded())
        #expect(decoded.id == 77)
        #expect(decoded.shard == 513)
        #expect(decoded.encoded() == call.encoded())
    }

    @Test func callsRoundTrip() throws {
        let plan = ShardTransactionPlan(anchor: 3, participants: [1, 2, 3])
        let write = try Self.write()
        try self.roundTrips(.write(write, conditions: []))
        try self.roundTrips(
            .write(
                write,
                conditions: [
                    WriteCondition(path: try Path(validating: "/posts/p1"), expectedHash: "abc="),
                    WriteCondition(path: .root, expectedHash: ""),
                ]))
        try self.roundTrips(.lock(Self.transaction, namespace: "app-1", paths: [.root, try Path(validating: "/a/b")]))
        try self.roundTrips(.unlock(Self.transaction))
        try self.roundTrips(.prepare(Self.transaction, ShardIntent(write: write, plan: plan), readLockTerm: nil))
        try self.roundTrips(.prepare(Self.transaction, ShardIntent(write: write, plan: plan), readLockTerm: 7))
        try self.roundTrips(
            .prepare(
                Self.transaction, ShardIntent(write: write, plan: plan, guards: [.root, try Path(validating: "/a/b")]),
                readLockTerm: 2))
        try self.roundTrips(
            .decide(
                Self.transaction, commit: true, part: ShardIntent(write: write, plan: plan),
                spineValues: [try Path(validating: "/posts"): try Self.node(#"{"p1":{".priority":"x","n":1}}"#)],
                readLockTerm: 3))
        try self.roundTrips(.decide(Self.transaction, commit: false, part: nil, spineValues: [:], readLockTerm: nil))
        try self.roundTrips(.finish(Self.transaction, commit: true))
        try self.roundTrips(.forget([Self.transaction, TransactionID(rawValue: 9)]))
        try self.roundTrips(.confirmRefusal(term: 12))
        try self.roundTrips(.claims([Self.transaction, TransactionID(rawValue: 1)]))
        try self.roundTrips(.claims([]))
    }

    @Test func turnCommandsRoundTripExactly() throws {
        let target = ConditionalWriteScheduler.Target(namespace: "app-1", path: try Path(validating: "/posts/p1/ü"))
        let commands: [ShardCall.TurnCommand] = [
            .admit(caller: 1 << 63 | 5, target: target, etag: "abc="),
            .admit(caller: 2, target: ConditionalWriteScheduler.Target(namespace: "n", path: .root), etag: ""),
            .answered(request: 9, .committed), .answered(request: 10, .conditionFailed(etag: "\"e\"")),
            .answered(request: 11, .failed), .read(caller: 3, target: target), .callerClosed(1 << 63 | 5),
        ]
        for command in commands {
            try self.roundTrips(.turn(command))
            let decoded = try ShardCall(decoding: ShardCall(id: 1, shard: 0, command: .turn(command)).encoded())
            guard case .turn(let turn) = decoded.command else {
                Issue.record("a turn command decoded as something else")
                continue
            }
            #expect(turn == command)
        }
        let admitted = try ShardReply(decoding: ShardReply(id: 2, outcome: .turnAdmitted(request: 77)).encoded())
        guard case .turnAdmitted(77) = admitted.outcome else {
            Issue.record("a turn admission decoded as \(admitted.outcome)")
            return
        }
    }

    @Test func repliesRoundTrip() throws {
        let position = ShardLogPosition(shard: 9, index: 12, sequence: 40, term: 3)
        let resolved: [ResolvedMutation] = [
            .set(try Path(validating: "/a/b"), try Self.node(#"{".value":"v",".priority":2.5}"#)),
            .setPriority(try Path(validating: "/a"), .string("é")),
            .setPriority(try Path(validating: "/a/c"), .int(-4)),
            .setPriority(try Path(validating: "/a/d"), nil),
        ]
        let outcomes: [ShardReply.Outcome] = [
            .appended(position, resolved), .conditionFailed(through: 8), .needsAllShards,
            .locked(ShardReadLock(nodes: [try Self.node(#"{"x":[1,2]}"#), .empty], through: 11, term: 4)), .unlocked,
            .prepared(position), .notLeader(leader: "n2"), .notLeader(leader: nil), .failed("the log failed"),
            .claimed([Self.transaction]), .claimed([]),
            .alreadyDecided(commit: true, at: position), .alreadyDecided(commit: false, at: nil), .nothingToDo,
            .readLockLost, .confirmed(true), .confirmed(false),
        ]
        for outcome in outcomes {
            let reply = ShardReply(id: 5, outcome: outcome)
            let decoded = try ShardReply(decoding: reply.encoded())
            #expect(decoded.id == 5)
            #expect(decoded.encoded() == reply.encoded())
        }
        guard
            case .appended(let decodedPosition, let decodedResolved) = try ShardReply(
                decoding: ShardReply(id: 1, outcome: .appended(position, resolved)).encoded()
            ).outcome
        else {
            Issue.record("an appended reply decoded as something else")
            return
        }
        #expect(decodedPosition.shard == 9 && decodedPosition.index == 12)
        #expect(decodedPosition.sequence == 40 && decodedPosition.term == 3)
        #expect(decodedResolved == resolved)
    }

    @Test func damagedBytesAreRefused() throws {
        let bytes = ShardCall(id: 1, shard: 0, command: .finish(Self.transaction, commit: true)).encoded()
        #expect(throws: (any Error).self) { try ShardCall(decoding: Array(bytes.dropLast())) }
        var unknown = bytes
        unknown[10] = 99
        #expect(throws: (any Error).self) { try ShardCall(decoding: unknown) }
        #expect(throws: (any Error).self) { try ShardReply(decoding: [1, 0, 0, 0, 0, 0, 0, 0, 42]) }
    }

    /// A write whose value length is past `Int.max` is refused, not trapped on (found by the `peer-payloads` fuzz
    /// target, seed 1, input 137000: any node that reached a peer port could stop another this way).
    @Test func aValueLengthPastIntMaxIsRefused() {
        var call: [UInt8] = [7, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 1]
        call += [0, 0] + [0, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0]
        call += [1] + [0, 0] + [0, 0, 0, 0, 0, 0, 0, 0x80]
        #expect(throws: (any Error).self) { try ShardCall(decoding: call) }
        call[call.count - 1] = 0xFF
        #expect(throws: (any Error).self) { try ShardCall(decoding: call) }
    }
}
