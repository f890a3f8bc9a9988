import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Log records carry shard entries between a leader and every replay: each kind must come back as it went in, and a
/// record this version cannot read must stop recovery with a `CommitRecordError`, never be misread.
@Suite struct ShardLogRecordTests {
    static let transaction = TransactionID(rawValue: 0xDEAD_BEEF_0000_0001)

    static func sampleWrite() throws -> ShardWrite {
        ShardWrite(
            namespace: "default",
            mutations: [
                try Fixture.set("posts/p1/n", #"{".sv":{"increment":-2.5}}"#),
                try Fixture.set(
                    "posts/p1/meta", #"{"at":{".sv":"timestamp"},"t":"é\n","x":{".value":1,".priority":"p"}}"#),
                try Fixture.set("posts/p1/gone", "null"),
                .setPriority(Fixture.path("posts/p1"), try Fixture.value(#"{".sv":"timestamp"}"#)),
                .setPriority(Fixture.path("posts/p2"), try Fixture.value("null")),
            ],
            now: -1_700_000_000_123)
    }

    static func samples() throws -> [ShardEntry] {
        let write = try Self.sampleWrite()
        return [
            .write(write),
            .write(ShardWrite(namespace: "ns-é", mutations: [], now: Int64.max)),
            .prepare(
                Self.transaction,
                ShardIntent(write: write, plan: ShardTransactionPlan(anchor: 3, participants: [0, 3, 65_535]))),
            .prepare(
                TransactionID(rawValue: 0),
                ShardIntent(
                    write: ShardWrite(namespace: "d", mutations: [], now: 0),
                    plan: ShardTransactionPlan(anchor: 0, participants: [0]))),
            .prepare(
                Self.transaction,
                ShardIntent(
                    write: write, plan: ShardTransactionPlan(anchor: 1, participants: [1, 2]),
                    guards: [try Path(validating: "/posts/p1"), .root])),
            .decide(
                Self.transaction, commit: true,
                ShardIntent(write: write, plan: ShardTransactionPlan(anchor: 3, participants: [0, 3]))),
            .decide(Self.transaction, commit: false, nil),
            .finish(TransactionID(rawValue: UInt64.max), commit: true),
            .finish(Self.transaction, commit: false),
            .commit(
                Self.transaction,
                ShardIntent(write: write, plan: ShardTransactionPlan(anchor: 3, participants: [1, 3]))),
        ]
    }

    /// Structural equality: kinds, transactions, plans, and every mutation's path and parsed value.
    static func same(_ a: ShardEntry, _ b: ShardEntry) -> Bool {
        switch (a, b) {
        case (.write(let x), .write(let y)): return Self.same(x, y)
        case (.prepare(let t, let x), .prepare(let u, let y)):
            return t == u && x.plan == y.plan && x.guards == y.guards && Self.same(x.write, y.write)
        case (.decide(let t, let c, nil), .decide(let u, let d, nil)), (.finish(let t, let c), .finish(let u, let d)):
            return t == u && c == d
        case (.decide(let t, let c, let x?), .decide(let u, let d, let y?)):
            return t == u && c == d && x.plan == y.plan && Self.same(x.write, y.write)
        case (.commit(let t, let x), .commit(let u, let y)):
            return t == u && x.plan == y.plan && Self.same(x.write, y.write)
        default: return false
        }
    }

    static func same(_ a: ShardWrite, _ b: ShardWrite) -> Bool {
        guard a.namespace == b.namespace, a.now == b.now, a.mutations.count == b.mutations.count else { return false }
        return zip(a.mutations, b.mutations).allSatisfy { x, y in
            switch (x, y) {
            case (.set(let p, let v), .set(let q, let w)), (.setPriority(let p, let v), .setPriority(let q, let w)):
                p == q && v.node == w.node && Set(v.placeholders) == Set(w.placeholders)
                    && v.pendingPriorities == w.pendingPriorities
            default: false
            }
        }
    }

    @Test func everyEntryKindRoundTrips() throws {
        for (offset, entry) in try Self.samples().enumerated() {
            let shard = offset * 7_000
            let index = UInt64(offset) << 40 + 1
            let bytes = ShardLogRecord.encode(entry, shard: shard, index: index)
            let record = try ShardLogRecord(decoding: bytes)
            guard case .entry(let decodedShard, let decodedIndex, let decoded) = record else {
                Issue.record("entry \(offset) decoded as \(record)")
                continue
            }
            #expect(decodedShard == shard && decodedIndex == index, "entry \(offset)")
            #expect(Self.same(decoded, entry), "entry \(offset): \(decoded) != \(entry)")
            #expect(ShardLogRecord.encode(decoded, shard: shard, index: index) == bytes, "entry \(offset)")
        }
    }

    /// A record of entries together is laid out as documented (`u8 3`, `u16 n`, then per entry `u16 shard`, `u64
    /// index`, `u32 length` and the entry's own bytes), built here field by field from each entry's encoding; encoded
    /// from a lazy sequence after bytes already in a reused buffer, it appends exactly those bytes, and so does the
    /// write loop's encoding from its entries and their positions' shards and indexes, which leaves the entries as
    /// they were.
    @Test func entriesTogetherAreLaidOutAsDocumentedInAReusedBuffer() throws {
        let entries = try Self.samples().enumerated().map { offset, entry in
            (shard: offset * 7, index: UInt64(offset) * 1_000 + 1, entry: entry)
        }
        var expected: [UInt8] = [3, UInt8(entries.count), 0]
        for (shard, index, entry) in entries {
            var body: [UInt8] = []
            entry.encode(into: &body)
            expected += [UInt8(shard), 0]
            expected += (0..<8).map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
            expected += (0..<4).map { UInt8(truncatingIfNeeded: body.count >> (8 * $0)) }
            expected += body
        }
        #expect(ShardLogRecord.encode(together: entries) == expected)
        var reused: [UInt8] = [0xAA, 0xBB]
        ShardLogRecord.encode(together: entries.lazy.map { $0 }, into: &reused)
        #expect(reused == [0xAA, 0xBB] + expected)
        var fromArrays: [UInt8] = [0xAA, 0xBB]
        let positions = entries.map { ShardLogPosition(shard: $0.shard, index: $0.index, sequence: 0) }
        var parts = entries.map(\.entry)
        ShardLogRecord.encode(together: &parts, at: positions, into: &fromArrays)
        #expect(fromArrays == reused)
        // Each entry is moved out of the array while it is written and put back: the array ends as it began.
        #expect(parts.count == entries.count)
        for (part, original) in zip(parts, entries) { #expect(Self.same(part, original.entry), "\(part)") }
    }

    /// A write's mutations are written where their list holds them (`ShardWrite.encode(into:)`), while another
    /// holder shares the list (as the applied change does): the bytes read back as the write, and the list is
    /// neither copied nor changed, for either holder.
    @Test func aSharedListOfMutationsIsWrittenInPlaceAndLeftAsItWas() throws {
        let write = try Self.sampleWrite()
        let sharer = write.mutations
        var bytes: [UInt8] = []
        write.encode(into: &bytes)
        var reader = BinaryReader(bytes: bytes)
        let decoded = try ShardWrite(reading: &reader)
        #expect(reader.isAtEnd)
        #expect(Self.same(decoded, write))
        var again: [UInt8] = []
        decoded.encode(into: &again)
        #expect(again == bytes)
        let base = { (mutations: [Mutation]) in mutations.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(base(sharer) == base(write.mutations))
        #expect(Self.same(ShardWrite(namespace: write.namespace, mutations: sharer, now: write.now), write))
    }

    /// A realtime star's record (a transaction's two parts committed at once, an increment and a `true` each, with
    /// the client's origin) is, byte for byte, the record the previous version wrote: these bytes were read from
    /// the write-ahead log of session 34's baseline (6b99642) under the star benchmark.
    @Test func aStarsRecordIsTheBytesThePreviousVersionWrote() throws {
        let written = Self.bytes(
            fromHex:
                "03020000004200000000000000b90000000717c8c44cfaf572cf0e00020000000e00078064656661756c74abb38925a201000002"
                + "000000011d00706f7374732f7273343671713378302d7031372f73746172436f756e7417000000000000007b222e7376223a7b22"
                + "696e6372656d656e74223a317d7d011e00706f7374732f7273343671713378302d7031372f73746172732f753935370400000000"
                + "00000074727565164b7958396e486d48567131765877744f4451396d6a42560100000000000056010000000000000e000b010000"
                + "00000000dd0000000717c8c44cfaf572cf0e00020000000e00078064656661756c74abb38925a201000002000000012f00757365"
                + "722d706f7374732f7273343671713378302d61312f7273343671713378302d7031372f73746172436f756e741700000000000000"
                + "7b222e7376223a7b22696e6372656d656e74223a317d7d013000757365722d706f7374732f7273343671713378302d61312f7273"
                + "343671713378302d7031372f73746172732f75393537040000000000000074727565164b7958396e486d48567131765877744f44"
                + "51396d6a4256010000000000005601000000000000")
        let origin = try WriteOrigin(client: "KyX9nHmHVq1vXwtODQ9mjB", sequence: 342, settledBelow: 342)
        var entries = try ["posts/rs46qq3x0-p17", "user-posts/rs46qq3x0-a1/rs46qq3x0-p17"].map { base in
            ShardEntry.commit(
                TransactionID(rawValue: 0xCF72_F5FA_4CC4_C817),
                ShardIntent(
                    write: ShardWrite(
                        namespace: "default",
                        mutations: [
                            try Fixture.set(base + "/starCount", #"{".sv":{"increment":1}}"#),
                            try Fixture.set(base + "/stars/u957", "true"),
                        ],
                        now: 1_795_926_111_147, origin: origin),
                    plan: ShardTransactionPlan(anchor: 14, participants: [0, 14])))
        }
        let positions = [
            ShardLogPosition(shard: 0, index: 66, sequence: 0), ShardLogPosition(shard: 14, index: 267, sequence: 0),
        ]
        #expect(written.count == 437)
        var bytes: [UInt8] = []
        ShardLogRecord.encode(together: &entries, at: positions, into: &bytes)
        #expect(bytes == written)
    }

    static func bytes(fromHex text: String) -> [UInt8] {
        let digits = Array(text)
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    /// Entries of several shards in one record come back in order, each at its shard and index; a record cut short
    /// anywhere, or an entry whose length runs past its bytes, is refused rather than misread.
    @Test func entriesAppendedTogetherRoundTripAndATruncatedRecordIsRefused() throws {
        let entries = try Self.samples().enumerated().map { offset, entry in
            (shard: offset * 7, index: UInt64(offset) * 1_000 + 1, entry: entry)
        }
        let bytes = ShardLogRecord.encode(together: entries)
        let record = try ShardLogRecord(decoding: bytes)
        guard case .entries(let decoded) = record else {
            Issue.record("decoded as \(record)")
            return
        }
        #expect(decoded.count == entries.count)
        for (back, sent) in zip(decoded, entries) {
            #expect(back.shard == sent.shard && back.index == sent.index)
            #expect(Self.same(back.entry, sent.entry), "\(back.entry) != \(sent.entry)")
        }
        #expect(record.shardEntries.count == entries.count)
        for length in [1, 3, 12, 15, bytes.count / 2, bytes.count - 1] {
            #expect(throws: CommitRecordError.self, "cut at \(length)") {
                try ShardLogRecord(decoding: Array(bytes[..<length]))
            }
        }
        // The first entry's length grown by one takes a byte of the next entry, which must not read as whole.
        var stretched = bytes
        stretched[13] &+= 1
        #expect(throws: CommitRecordError.self) { try ShardLogRecord(decoding: stretched) }
    }

    @Test(arguments: [51, 52] as [UInt64])
    func randomWritesRoundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for round in 0..<200 {
            var mutations: [Mutation] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let path = Path(keys: (0..<Int.random(in: 0...4, using: &random)).map { Key(unchecked: "k\($0)") })
                if Bool.random(using: &random) {
                    mutations.append(.set(path, try ValueSpec.random(&random, depth: 3).writeValue(at: path)))
                } else {
                    mutations.append(.setPriority(path, try PrioritySpec.random(&random).writeValue()))
                }
            }
            let write = ShardWrite(
                namespace: "default", mutations: mutations, now: Int64.random(in: 0...1 << 50, using: &random))
            let entry: ShardEntry =
                Bool.random(using: &random)
                ? .write(write)
                : .prepare(
                    Self.transaction,
                    ShardIntent(write: write, plan: ShardTransactionPlan(anchor: 1, participants: [1, 2])))
            let decoded = try ShardLogRecord(decoding: ShardLogRecord.encode(entry, shard: 1, index: 1))
            guard case .entry(1, 1, let back) = decoded, Self.same(back, entry) else {
                Issue.record("seed \(seed) round \(round): \(entry) came back as \(decoded)")
                continue
            }
        }
    }

    @Test func pathsAreWrittenAsTheirSlashlessText() {
        for path in [Path.root, Fixture.path("a"), Fixture.path("posts/p1/stars/é-ü/42")] {
            var direct: [UInt8] = []
            BinaryWriter.appendPath(path, to: &direct)
            var viaText: [UInt8] = []
            BinaryWriter.appendString(path.slashless, to: &viaText)
            #expect(direct == viaText, "\(path)")
        }
    }

    @Test func pathsAreReadBackFromTheirSlashlessText() {
        for path in [Path.root, Fixture.path("a"), Fixture.path("posts/p1/stars/é-ü/42"), Fixture.path("🔥/x")] {
            #expect(LogDecoding.path(path.slashless) == path, "\(path)")
        }
    }

    @Test func everyTruncationThrowsACommitRecordError() throws {
        for entry in try Self.samples() {
            let bytes = ShardLogRecord.encode(entry, shard: 2, index: 7)
            for length in 0..<bytes.count {
                #expect(throws: CommitRecordError.self, "\(entry) cut to \(length) of \(bytes.count) bytes") {
                    try ShardLogRecord(decoding: Array(bytes[..<length]))
                }
            }
        }
    }

    @Test func unknownVersionsKindsAndMutationsThrowACommitRecordError() throws {
        let bytes = ShardLogRecord.encode(.write(try Self.sampleWrite()), shard: 1, index: 1)
        var unknownVersion = bytes
        unknownVersion[0] = 3
        var unknownKind = bytes
        unknownKind[11] = 5
        var unknownMutation = bytes
        // version, shard, index, kind, namespace length + "default", now, count: the first mutation's kind follows.
        unknownMutation[1 + 2 + 8 + 1 + 2 + 7 + 8 + 4] = 9
        for (name, damaged) in [("version", unknownVersion), ("kind", unknownKind), ("mutation", unknownMutation)] {
            #expect(throws: CommitRecordError.self, "unknown \(name)") { try ShardLogRecord(decoding: damaged) }
        }
    }

    /// A value the JSON parser rejects is a record this version cannot read, like any other damage.
    @Test func aDamagedValueThrowsACommitRecordError() throws {
        let write = ShardWrite(namespace: "default", mutations: [try Fixture.set("a/b", #"{"x":1}"#)], now: 0)
        var bytes = ShardLogRecord.encode(.write(write), shard: 0, index: 1)
        let brace = try #require(bytes.lastIndex(of: UInt8(ascii: "{")))
        bytes[brace] = UInt8(ascii: "#")
        #expect(throws: CommitRecordError.self) { try ShardLogRecord(decoding: bytes) }
    }

    @Test func aVersion1RecordStillDecodes() throws {
        let bytes = Self.legacyRecord(
            namespace: "legacy", [(1, "a/b", #"{"x":1,".priority":2}"#), (2, "a", "3.5"), (2, "c", "null")])
        guard case .legacy(let record) = try ShardLogRecord(decoding: bytes) else {
            Issue.record("a version 1 record must decode as legacy")
            return
        }
        #expect(record.namespace == "legacy")
        #expect(
            record.mutations == [
                .set(Fixture.path("a/b"), try Fixture.node(#"{"x":1,".priority":2}"#)),
                .setPriority(Fixture.path("a"), .double(3.5)), .setPriority(Fixture.path("c"), nil),
            ])
        for length in 1..<bytes.count {
            #expect(throws: CommitRecordError.self) { try ShardLogRecord(decoding: Array(bytes[..<length])) }
        }
    }

    @Test func recoveryAppliesVersion1RecordsBeforeShardEntriesOnly() throws {
        let router = ShardRouter(shardCount: 2, shardDepth: 1)
        var recovery = Recovery(router: router, snapshot: nil)
        try recovery.replay(
            try ShardLogRecord(decoding: Self.legacyRecord(namespace: "default", [(1, "a/b", "1"), (1, "c", "2")])),
            sequence: 1)
        let shard = try #require(router.shard(namespace: "default", path: Fixture.path("a")))
        let entry = ShardEntry.write(ShardWrite(namespace: "default", mutations: [try Fixture.set("a/d", "3")], now: 0))
        try recovery.replay(.entry(shard: shard, index: 1, entry), sequence: 2)
        #expect(throws: CommitRecordError.self, "an old record after a shard entry") {
            try recovery.replay(
                try ShardLogRecord(decoding: Self.legacyRecord(namespace: "default", [(1, "x", "1")])), sequence: 3)
        }
        #expect(throws: CommitRecordError.self, "a gap in a shard's entries") {
            try recovery.replay(.entry(shard: shard, index: 3, entry), sequence: 3)
        }
        #expect(throws: CommitRecordError.self, "a shard this node does not have") {
            try recovery.replay(.entry(shard: 2, index: 1, entry), sequence: 3)
        }
        let (view, machines) = recovery.finish(sequence: 3)
        #expect(Fixture.json(view.roots["default"] ?? .empty) == #"{"a":{"b":1,"d":3},"c":2}"#)
        #expect(Fixture.json(machines[shard].node(namespace: "default", at: .root)).contains(#""d":3"#))
    }

    /// A record in the version 1 layout: `u8 1`, namespace, `u32 count`, then kind, path and export JSON per mutation.
    static func legacyRecord(namespace: String, _ mutations: [(kind: UInt8, path: String, json: String)]) -> [UInt8] {
        var bytes: [UInt8] = [1]
        BinaryWriter.appendString(namespace, to: &bytes)
        BinaryWriter.append(UInt32(mutations.count), to: &bytes)
        for (kind, path, json) in mutations {
            bytes.append(kind)
            BinaryWriter.appendString(path, to: &bytes)
            BinaryWriter.append(UInt64(json.utf8.count), to: &bytes)
            bytes.append(contentsOf: json.utf8)
        }
        return bytes
    }
}
