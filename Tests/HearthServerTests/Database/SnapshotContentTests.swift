import HearthCore
import HearthStorage
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Snapshots must give back exactly the trees they were written from, however the spine looks.
@Suite struct SnapshotContentTests {
    @Test(arguments: [1, 2, 3])
    func randomTreesRoundTripThroughASnapshotFile(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        for round in 0..<40 {
            var roots: [String: Node] = [:]
            for index in 0..<Int.random(in: 1...3, using: &random) {
                roots["ns\(index)"] = Self.tree(depth: 0, random: &random)
            }
            roots = roots.filter { !$0.value.isEmpty }
            let depth = Int.random(in: 1...3, using: &random)
            let decoded = try await Self.roundTrip(roots, depth: depth, parallelism: 1 + round % 3)
            #expect(decoded == roots, "seed \(seed) round \(round) depth \(depth)")
        }
    }

    @Test func aRootLeafAndSpinePrioritiesSurvive() async throws {
        let spine = Node(
            children: ChildMap(sortedUniqueElements: [
                (Key(unchecked: "a"), Node(.int(1), priority: .string("p"))),
                (
                    Key(unchecked: "b"),
                    Node(
                        children: ChildMap(sortedUniqueElements: [(Key(unchecked: "c"), Node(.bool(true)))]),
                        priority: .double(2.5))
                ),
            ]), priority: .int(7))
        let roots = ["leafy": Node(.string("only a leaf")), "spiny": spine]
        #expect(try await Self.roundTrip(roots, depth: 2, parallelism: 2) == roots)
    }

    /// A version 3 payload (the trees as JSON text lines) and the trees it holds.
    static let version3Text = """
        hearth-snapshot 3
        I\t0\t5
        I\t1\t0
        N\tdefault
        P\tusers\t7
        S\tusers/a\t{"x":1,".priority":2}
        S\tusers/b\t"text"
        N\tother
        S\t\t42

        """
    static let version3Roots: [String: Node] = {
        let record = Node(
            children: ChildMap(sortedUniqueElements: [(Key(unchecked: "x"), Node(.int(1)))]), priority: .int(2))
        let users = Node(
            children: ChildMap(sortedUniqueElements: [
                (Key(unchecked: "a"), record), (Key(unchecked: "b"), Node(.string("text"))),
            ]), priority: .int(7))
        return [
            "default": Node(children: ChildMap(sortedUniqueElements: [(Key(unchecked: "users"), users)])),
            "other": Node(.int(42)),
        ]
    }()

    /// Snapshots written before the trees were binary (version 3: JSON text lines) still load.
    @Test func aVersion3SnapshotStillLoads() async throws {
        let decoded = try await SnapshotContent.decode(Array(Self.version3Text.utf8), parallelism: 2)
        #expect(decoded.appliedIndex == [0: 5, 1: 0])
        #expect(decoded.roots == Self.version3Roots)
    }

    /// Fed in chunks of any size, the decoder gives what the whole payload gives: lines and records cut by a chunk's
    /// end wait for the next chunk.
    @Test(arguments: [1, 7, 64, 4_096]) func chunksOfAnySizeDecodeLikeTheWholePayload(chunk: Int) async throws {
        var random = SeededRandom(seed: UInt64(chunk))
        var roots: [String: Node] = [:]
        for index in 0..<3 { roots["ns\(index)"] = Self.tree(depth: 0, random: &random) }
        roots = roots.filter { !$0.value.isEmpty }
        let sessions = WriteSessions(sessions: [
            "client-a": WriteSessions.Session(settledBelow: 3, applied: [4, 6], lastUsed: 99)
        ])
        let cut = SnapshotContent.ShardCut(
            shard: 1, index: 12, intents: [:], decisions: [TransactionID(rawValue: 5): true], sessions: sessions)
        var bytes: [UInt8] = []
        try SnapshotContent.encode(roots: roots, cuts: [cut], depth: 2, into: &bytes)
        var decoder = SnapshotDecoder(parallelism: 2)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try await decoder.feed(Array(bytes[start..<min(start + chunk, bytes.count)]))
        }
        let decoded = try await decoder.finish()
        #expect(decoded.roots == roots)
        #expect(decoded.appliedIndex == [1: 12])
        #expect(decoded.decisions == [1: [TransactionID(rawValue: 5): true]])
        #expect(decoded.sessions[1]?.sessions == sessions.sessions)

        let legacy = Array(Self.version3Text.utf8)
        var legacyDecoder = SnapshotDecoder(parallelism: 2)
        for start in stride(from: 0, to: legacy.count, by: chunk) {
            try await legacyDecoder.feed(Array(legacy[start..<min(start + chunk, legacy.count)]))
        }
        #expect(try await legacyDecoder.finish().roots == Self.version3Roots)
    }

    /// A tree section cut anywhere fails to load with a reason instead of loading part of the data.
    @Test func aTruncatedTreeSectionIsRefused() async throws {
        var random = SeededRandom(seed: 5)
        let roots = ["default": Self.tree(depth: 0, random: &random), "b": Node(.int(1))].filter { !$0.value.isEmpty }
        var bytes: [UInt8] = []
        let cut = SnapshotContent.ShardCut(shard: 0, index: 1, intents: [:], decisions: [:])
        try SnapshotContent.encode(roots: roots, cuts: [cut], depth: 2, into: &bytes)
        #expect(try await SnapshotContent.decode(bytes, parallelism: 2).roots == roots)
        let treeStart = try #require(bytes.firstRange(of: Array("\nB\n".utf8))).upperBound
        for end in stride(from: treeStart + 1, to: bytes.count, by: max(1, (bytes.count - treeStart) / 50)) {
            await #expect(throws: CommitRecordError.self) {
                try await SnapshotContent.decode(Array(bytes[..<end]), parallelism: 2)
            }
        }
    }

    private static func roundTrip(_ roots: [String: Node], depth: Int, parallelism: Int) async throws -> [String: Node]
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        let capture = ViewSnapshot(
            sequence: 1, roots: roots, appliedIndex: [3, 0], intents: [[:], [:]], decisions: [[:], [:]],
            sessions: [WriteSessions(), WriteSessions()])
        try store.write(lsn: 1) { writer in try SnapshotContent.encode(capture, depth: depth, into: &writer) }
        let latest = try #require(try store.latest())
        let decoded = try await SnapshotContent.decode(try store.read(latest), parallelism: parallelism)
        #expect(decoded.appliedIndex == [0: 3, 1: 0])
        return decoded.roots
    }

    private static func tree(depth: Int, random: inout SeededRandom) -> Node {
        let priority: Priority? =
            switch Int.random(in: 0..<6, using: &random) {
            case 0: .int(Int64.random(in: -5...5, using: &random))
            case 1: .string("p\(Int.random(in: 0..<3, using: &random))")
            default: nil
            }
        if depth >= 4 || Int.random(in: 0..<4, using: &random) == 0 {
            let value: LeafValue =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: .bool(Bool.random(using: &random))
                case 1: .int(Int64.random(in: -1000...1000, using: &random))
                case 2: .double(Double.random(in: -10...10, using: &random))
                default: .string("s\t\(Int.random(in: 0..<100, using: &random))\n\u{2028}")
                }
            return Node(value, priority: priority)
        }
        var children: [(key: Key, node: Node)] = []
        for index in 0..<Int.random(in: 0...4, using: &random) {
            let name = ["\(index)", "k\(index)", "é\(index)", "-\(index)"][Int.random(in: 0..<4, using: &random)]
            children.append((Key(unchecked: name), Self.tree(depth: depth + 1, random: &random)))
        }
        var map = ChildMap()
        for (key, node) in children { map = map.updating(key, with: node) }
        return Node(children: map, priority: priority)
    }
}
