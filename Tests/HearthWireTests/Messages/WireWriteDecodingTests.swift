import HearthCore
import HearthTestKit
import Testing

@testable import HearthWire

/// The realtime write decoder that goes straight from a message's bytes to its mutations, against the general way
/// (`WireClientMessage`, then the write rules): it answers only where that way accepts, with the same write.
@Suite struct WireWriteDecodingTests {
    /// Puts and merges as clients send them, in both member orders, with whitespace, escapes, server values,
    /// priorities, `.value`, arrays, origins and a null hash.
    static let usual = [
        // Member names and letters escaped: told apart by the letter they decode to.
        #"{"\u0074":"\u0064","d":{"r":19,"\u0061":"\u006d","b":{"\u0070":"\/a","d":{"b":1},"\u006f":null}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a/b","d":{"x":1.5,"y":[true,null,"s"],".priority":2}}}}"#,
        #"{"t":"d","d":{"r":4,"a":"m","b":{"p":"/a","d":{"b/c":{".sv":"timestamp"},"n":{".sv":{"increment":-1}}}}}}"#,
        #"{"d":{"a":"m","b":{"d":{"stars/u1":true,"count":{".sv":{"increment":1}}},"p":"/posts/p1"},"r":9},"t":"d"}"#,
        #"{ "t" : "d" , "d" : { "r" : 2 , "a" : "p" , "b" : { "p" : "/" , "d" : null , "h" : null } } }"#,
        "{\"t\":\"d\",\n\"d\":{\"r\":3,\"a\":\"p\",\"b\":{\"p\":\"/a/.priority\",\"d\":\"high\"}}}\r\n",
        #"{"t":"d","d":{"r":5,"a":"p","b":{"p":"/s","d":"\u00e9\n\ud83d\ude00\"\\"}}}"#,
        #"{"t":"d","d":{"r":6,"a":"p","b":{"p":"/v","d":{".value":3,".priority":{".sv":"timestamp"}}}}}"#,
        #"{"t":"d","d":{"r":7,"a":"m","b":{"p":"/","d":{}}}}"#,
        #"{"t":"d","d":{"r":8,"a":"p","b":{"p":"/o","d":[1,2,null,{"z":{}}],"o":{"c":"app-1","s":3,"a":2}}}}"#,
        #"{"t":"d","d":{"r":1e1,"a":"p","b":{"p":"/k","d":{"b":1,"a":2,"10":3,"-2":4,"9":5}},"x":[1]},"y":{}}"#,
        #"{"t":"d","d":{"r":11,"a":"m","b":{"p":"/m","d":{"a/.priority":7,"b":{".sv":"timestamp",".priority":1}}}}}"#,
        #"{"t":"d","d":{"b":{"d":{"x":{".sv":"timestamp"}},"p":"/a"},"r":12,"a":"p"}}"#,
        #"{"t":"d","d":{"b":{"d":{"q/r":[0]},"p":"/m"},"a":"m","r":13}}"#,
        #"{"t":"d","d":{"r":14,"a":"m","b":{"o":{"s":2.0,"x":[],"a":1,"c":"b-1"},"p":"/m","d":{"n":1}}}}"#,
        #"{"t":"d","d":{"r":15,"a":"p","b":{"o":null,"p":"/m","d":1}}}"#,
        // Keys that are one `String` but two byte sequences are two keys, in a merge's paths and in data.
        #"{"t":"d","d":{"r":16,"a":"m","b":{"p":"/a","d":{"\u00e9":1,"e\u0301":2}}}}"#,
        #"{"t":"d","d":{"r":17,"a":"p","b":{"p":"/a","d":{"\u00e9":1,"e\u0301":2}}}}"#,
        #"{"t":"d","d":{"r":18,"a":"m","b":{"p":"/a","d":{"\u00e9/x":{"e\u0301":1,"é":2},"e\u0301/x":3}}}}"#,
    ]

    /// Messages the general way accepts differently or refuses, or that are not writes: the direct decoder must
    /// decline every one.
    static let declined = [
        // Duplicate members at each level of the envelope, and in the data of a merge.
        #"{"t":"d","t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"r":2,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"d":2}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":{"x":1,"x":2}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":{"\u00e9":1,"é":2}}}}"#,
        // Not a put or merge, or a compare-and-set.
        #"{"t":"c","d":{"t":"p","d":{}}}"#,
        #"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"h":"abc"}}}"#,
        // Broken rules: keys, depth, server values, priorities, paths, overlaps, origins, types.
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".bad":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{"a$":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a$","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":"bogus"}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":"timestamp","b":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".sv":{"increment":"1"}}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a/.priority","d":true}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":{".priority":[1]}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":{"b":1,"b/c":2}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a","d":5}}}"#,
        #"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/a/.priority","d":{"b":1}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"o":{"c":"","s":1,"a":0}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"o":{"c":"a","c":"b","s":1,"a":0}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"o":{"c":"a","s":1,"a":2}}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"o":[]}}}"#,
        #"{"t":"d","d":{"r":"1","a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1.5,"a":"p","b":{"p":"/a","d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":5,"d":1}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a"}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":[]}}"#,
        #"{"t":"d","d":{"r":1,"a":"p"}}"#,
        // Broken JSON: numbers out of range, escapes, control characters, trailing bytes.
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1e400}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":"\ud800"}}}"#,
        "{\"t\":\"d\",\"d\":{\"r\":1,\"a\":\"p\",\"b\":{\"p\":\"/a\",\"d\":\"\u{1}\"}}}",
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":01}}}"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}x"#,
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}},}"#,
    ]

    /// The usual messages are decoded directly, to the general way's write.
    @Test(arguments: Self.usual)
    func usualWritesDecodeDirectlyToTheGeneralWrite(message: String) throws {
        let direct = try #require(WireWrite(decoding: message))
        #expect(WriteDecoderDifferential.general(message) == .write(WriteDecoderDifferential.WriteSummary(direct)))
    }

    /// Duplicates, other requests, broken rules and broken JSON are left to the general way.
    @Test(arguments: Self.declined)
    func unusualMessagesAreLeftToTheGeneralDecoder(message: String) {
        #expect(WireWrite(decoding: message) == nil)
    }

    /// A control message, another action or a compare-and-set is told apart as soon as its `t`, `a` or `h` is read
    /// (not walked further, so not decoded twice on the reactor); a duplicated member or a broken write is declined
    /// for the general decoder, which words the error.
    @Test func otherMessagesAreToldApartFromWritesItDeclines() {
        let notWrites = [
            #"{"t":"c","d":{"t":"p","d":{}}}"#,
            #"{"t":"d","d":{"r":1,"a":"q","b":{"p":"/a","h":""}}}"#,
            #"{"t":"d","d":{"r":2,"a":"p","b":{"p":"/a","d":1,"h":"abc"}}}"#,
            #"{"t":"d","d":{"r":3,"a":"g","b":{"p":"/a","q":{}}}"#,
        ]
        for message in notWrites {
            guard case .notAWrite = WireWrite.decoding(message) else {
                Issue.record("not told apart: \(message)")
                continue
            }
        }
        let declined = [
            #"{"t":"d","d":{"r":1,"a":"p","a":"p","b":{"p":"/a","d":1}}}"#,
            #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a/.x","d":1}}}"#,
            #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}"#,
        ]
        for message in declined {
            guard case .declined = WireWrite.decoding(message) else {
                Issue.record("not declined: \(message)")
                continue
            }
        }
    }

    /// Data nested past the write depth, or past the JSON nesting limit counted from the message's root (where
    /// `.value` adds no depth), is declined exactly where the general way refuses it.
    @Test func nestingIsCountedFromTheMessagesRoot() {
        for levels in [995, 996, 997, 998] {
            let data = String(repeating: #"{".value":"#, count: levels) + "1" + String(repeating: "}", count: levels)
            let message = #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":"# + data + "}}}"
            #expect(WriteDecoderDifferential.realtimeMismatch(message) == nil)
            let isWrite = if case .write = WriteDecoderDifferential.general(message) { true } else { false }
            #expect((WireWrite(decoding: message) != nil) == isWrite, "\(levels) levels")
            #expect(isWrite == (levels <= 997), "\(levels) levels")
        }
        for depth in [30, 31, 32, 33] {
            let data = String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            // The path before the data, and after it (the depth limit is then checked when the data is placed).
            for message in [
                #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":"# + data + "}}}",
                #"{"t":"d","d":{"r":1,"a":"p","b":{"d":"# + data + #","p":"/a"}}}"#,
                #"{"t":"d","d":{"r":1,"a":"m","b":{"d":{"b":"# + data + #"},"p":"/"}}}"#,
            ] {
                #expect(WriteDecoderDifferential.realtimeMismatch(message) == nil)
                #expect((WireWrite(decoding: message) != nil) == (depth < 32), "\(depth) keys below /a: \(message)")
            }
        }
    }

    /// Every prefix of a usual message (a truncated frame) is declined, as none is JSON.
    @Test func truncatedMessagesAreDeclined() {
        for message in Self.usual {
            let end = Array(message.utf8).lastIndex(of: UInt8(ascii: "}")) ?? 0
            for length in 0..<end {
                let prefix = String(decoding: Array(message.utf8.prefix(length)), as: UTF8.self)
                #expect(WireWrite(decoding: prefix) == nil, "\(prefix)")
            }
        }
    }

    /// Seeded random messages, hostile pieces included: wherever the direct decoder answers, the general way gives
    /// the same write; and it answers for most of the writes the general way accepts (it declines duplicates). The
    /// keys include `"é"`, `"\u00e9"` (the same bytes once read) and `"e\u0301"` (other bytes, one `String`).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomMessagesDecodeAsTheGeneralWayDoes(seed: UInt64) {
        var generator = WriteMessageGenerator(seed: seed)
        var (direct, accepted) = (0, 0)
        for _ in 0..<3000 {
            let message = generator.message()
            if let mismatch = WriteDecoderDifferential.realtimeMismatch(message) {
                Issue.record("seed \(seed): \(mismatch)")
                return
            }
            if WireWrite(decoding: message) != nil { direct += 1 }
            if case .write = WriteDecoderDifferential.general(message) { accepted += 1 }
        }
        #expect(direct * 10 >= accepted * 6, "seed \(seed): \(direct) of \(accepted) writes decoded directly")
    }

    /// One scratch kept across messages, as a connection keeps it, decodes each message as a fresh one does, and
    /// as the general way does: random writes (origins of several clients among them) in a row with the declined
    /// and truncated messages, so nothing one message leaves behind changes the next one's answer.
    @Test(arguments: [5, 6] as [UInt64])
    func aScratchKeptAcrossMessagesDecodesAsAFreshOne(seed: UInt64) {
        var generator = WriteMessageGenerator(seed: seed)
        var scratch = WireWrite.Scratch()
        var decoded = 0
        for round in 0..<4000 {
            let message: String
            switch round % 5 {
            case 0: message = generator.pick(Self.declined)
            case 1:
                let usual = Array(generator.pick(Self.usual).utf8)
                message = String(decoding: usual.prefix(generator.int(0..<usual.count)), as: UTF8.self)
            default: message = generator.message()
            }
            #expect(
                WriteDecoderDifferential.realtimeMismatch(message, reusing: &scratch) == nil,
                "seed \(seed) round \(round)")
            if case .write = WireWrite.decoding(message) { decoded += 1 }
        }
        #expect(decoded > 100, "seed \(seed): only \(decoded) writes decoded")
    }

    /// A client's id is one `String` from one write to the next while its bytes stay the same (escaped or not), and
    /// a new one when they change.
    @Test func theOriginsClientIsKeptWhileItsBytesStayTheSame() throws {
        var scratch = WireWrite.Scratch()
        func origin(_ client: String, _ sequence: Int) throws -> WriteOrigin {
            let message =
                #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1,"o":{"c":"\#(client)","s":\#(sequence),"a":0}}}}"#
            guard case .write(let write) = WireWrite.decoding(message, reusing: &scratch) else {
                throw WireProtocolError(.invalidRequest, "not decoded: \(message)")
            }
            return try #require(write.origin)
        }
        #expect(try origin("app-1", 1).client == "app-1")
        #expect(try origin("app\\u002d1", 2).client == "app-1")
        #expect(try origin("app-2", 3).client == "app-2")
        #expect(try origin("app-1", 4) == WriteOrigin(client: "app-1", sequence: 4, settledBelow: 0))
    }

    /// A message with a huge path (declined: past the path limits) leaves no more than the kept space in the
    /// connection's scratch once it is decoded, so a connection holds no message's worth of it uncharged.
    @Test func aHugePathLeavesNoSpaceBehind() {
        var scratch = WireWrite.Scratch()
        let path = String(repeating: "a/", count: 50_000)
        let message = #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/\#(path)","d":1}}}"#
        _ = WireWrite.decoding(message, reusing: &scratch)
        #expect(scratch.bytes.capacity <= WireWrite.Scratch.keptBytes)
    }

    /// Keys that differ only in their Unicode normalisation are two children on both ways: a put's data keeps
    /// both, and a merge sets both paths.
    @Test func canonicallyEquivalentKeysAreTwoKeysOnBothWays() throws {
        let composed = try Key(validating: "\u{E9}")
        let decomposed = try Key(validating: "e\u{301}")
        let put = try #require(WireWrite(decoding: Self.usual[Self.usual.count - 2]))
        guard case .set(_, let value) = try #require(put.mutations.first) else {
            Issue.record("not a set: \(put)")
            return
        }
        #expect(value.node.child(composed) == Node(.int(1)))
        #expect(value.node.child(decomposed) == Node(.int(2)))
        let merge = try #require(WireWrite(decoding: Self.usual[Self.usual.count - 3]))
        #expect(
            merge.mutations.map(\.path) == [
                Path(keys: [Key(unchecked: "a"), decomposed]), Path(keys: [Key(unchecked: "a"), composed]),
            ])
        for message in Self.usual.suffix(3) {
            #expect(WriteDecoderDifferential.realtimeMismatch(message) == nil)
        }
        let body = Array(#"{"\u00e9":1,"e\u0301":{"x":2}}"#.utf8)
        let (keys, mutations) = try #require(WriteRules.update(body: body, at: .root))
        // `String`'s `==` would take either order: the bytes tell them apart.
        #expect(keys.map { Array($0.utf8) } == [Array("e\u{301}".utf8), Array("\u{E9}".utf8)])
        #expect(mutations.map(\.path) == [Path(keys: [decomposed]), Path(keys: [composed])])
        #expect(WriteDecoderDifferential.updateMismatch(body: body, at: .root) == nil)
    }

    /// PATCH bodies: the direct reader gives the general way's keys and mutations, and declines what it refuses.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomPatchBodiesReadAsTheGeneralWayDoes(seed: UInt64) throws {
        var generator = WriteMessageGenerator(seed: seed)
        let base = try Path(validating: "posts/p1")
        var (direct, accepted) = (0, 0)
        for _ in 0..<3000 {
            let body = Array(generator.patchBody().utf8)
            if let mismatch = WriteDecoderDifferential.updateMismatch(body: body, at: base) {
                Issue.record("seed \(seed): \(mismatch)")
                return
            }
            if WriteRules.update(body: body, at: base) != nil { direct += 1 }
            if case .update = WriteDecoderDifferential.generalUpdate(body: body, at: base) { accepted += 1 }
        }
        #expect(direct * 10 >= accepted * 6, "seed \(seed): \(direct) of \(accepted) bodies read directly")
    }

    /// A PATCH body with a byte order mark, whitespace around it, or trailing bytes reads as the general way reads
    /// it.
    @Test func patchBodiesAtTheirEdges() throws {
        let base = try Path(validating: "a")
        let bodies = [
            "\u{FEFF}{\"b\":1}", " {\"b\":1} \n", "{\"b\":1} x", "{}", "[]", "", "{\"b\":1,\"b\":2}",
            "{\"c/d\":{\".sv\":{\"increment\":2}},\"b\":\"x\"}",
        ]
        for body in bodies {
            #expect(WriteDecoderDifferential.updateMismatch(body: Array(body.utf8), at: base) == nil, "\(body)")
        }
        #expect(WriteRules.update(body: Array("{\"b\":1,\"b\":2}".utf8), at: base) == nil)
        let (keys, mutations) = try #require(WriteRules.update(body: Array(" {\"c/d\":1,\"b\":2} ".utf8), at: base))
        #expect(keys == ["b", "c/d"])
        #expect(mutations.map(\.path) == [try Path(validating: "a/b"), try Path(validating: "a/c/d")])
    }
}
