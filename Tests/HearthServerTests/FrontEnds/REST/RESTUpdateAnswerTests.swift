import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNet

/// A PATCH's answer echoes each member's key with the value it wrote, in the keys' order, whatever order the loop
/// answered the members in.
@Suite struct RESTUpdateAnswerTests {
    /// The answer as it was written before it was read by index: keys and members zipped, each member matched to
    /// its key by path and kind.
    private static func zipped(keys: [String], _ ordered: [ResolvedMutation]) -> [UInt8] {
        var writer = JSONWriter()
        var body = [UInt8(ascii: "{")]
        for (index, (key, mutation)) in zip(keys, ordered).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            writer.write(JSONValue.string(key), to: &body)
            body.append(UInt8(ascii: ":"))
            switch mutation {
            case .set(_, let node): writer.write(node, format: .plain, to: &body)
            case .setPriority(_, let priority): body += Node.priorityJSON(priority)
            }
        }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// What the loop would answer for `mutations`: each value set resolved to a number (the member's index), each
    /// priority to a string.
    private static func resolved(_ mutations: [Mutation]) -> [ResolvedMutation] {
        mutations.enumerated().map { index, mutation in
            switch mutation {
            case .set(let path, _): .set(path, Node(.int(Int64(index))))
            case .setPriority(let path, _): .setPriority(path, .string("p\(index)"))
            }
        }
    }

    /// In order, reversed (a transaction across shards answers shallowest first) and rotated, the answer is the one
    /// the zipped writing gives for the members put back in the keys' order, with quotes and escapes in keys.
    @Test func echoesEveryMemberUnderItsKeyInTheKeysOrder() throws {
        let body = Array(
            #"{"posts/p1/starCount":{".sv":{"increment":1}},"posts/p1/stars/u\"1":true,"a/.priority":"x","user-posts/a1/p1/stars/é":null}"#
                .utf8)
        let (keys, mutations) = try #require(WriteRules.update(body: body, at: .root))
        let answered = Self.resolved(mutations)
        let expected = Self.zipped(keys: keys, answered)
        for shuffled in [answered, Array(answered.reversed()), Array(answered.dropFirst() + answered.prefix(1))] {
            let order = RESTHandler.answerOrder(of: mutations, shuffled)
            var written: [UInt8] = []
            RESTHandler.writeUpdateAnswer(keys: keys, shuffled, order: order, to: &written)
            #expect(written == expected)
        }
        #expect(String(decoding: expected, as: UTF8.self).hasPrefix(#"{"a/.priority":"p0","#))
    }

    /// The answer written straight into the bytes sent (`updateReply`) is byte for byte the head and body the server
    /// wrote for the echo as an `HTTPResponse` (status 200, a write's two JSON fields, `Content-Length`), for updates
    /// of 1 to 40 members whose answers cross `Content-Length`'s digit counts, and whatever capacity is guessed.
    @Test func writesTheAnswersBytesAsTheResponseWouldBe() throws {
        for members in 1...40 {
            var object = "{"
            for index in 0..<members {
                if index > 0 { object += "," }
                object += index % 3 == 0 ? #""p\#(index)/.priority":"x""# : #""m\#(index)/k\"é":{"a":[1,\#(index)]}"#
            }
            object += "}"
            let (keys, mutations) = try #require(WriteRules.update(body: Array(object.utf8), at: .root))
            let answered = Self.resolved(mutations)
            let body = Self.zipped(keys: keys, answered)
            let framing = HTTPResponseEncoder.Framing(contentLength: body.count, connection: nil)
            let expected =
                HTTPResponseEncoder.encodeHead(status: 200, headers: RESTHandler.jsonAnswerHeaders, framing: framing)
                + body
            // Answered in the members' order, and reversed (each member's answer found through `answerOrder`).
            for (resolved, capacity) in [
                (answered, 0), (answered, object.utf8.count + 2), (Array(answered.reversed()), 100_000),
            ] {
                let order = RESTHandler.answerOrder(of: mutations, resolved)
                guard
                    case .encoded(let answer) = RESTHandler.updateReply(
                        keys: keys, resolved, order: order, capacity: capacity)
                else {
                    Issue.record("a PATCH's answer is written ahead")
                    return
                }
                #expect(answer.bytes == expected, "\(members) members")
            }
        }
    }

    /// Members' answers found by scanning the answers (up to `scannedMembers`) are where the tables (more) find
    /// them, each the last answer with the member's path and kind, for 400 seeded updates of 1 to 24 members:
    /// answers shuffled, some answered twice (the last one counts), some not at all (then the answers are taken as
    /// they are), some paths both a value and a priority.
    @Test func membersFindTheirAnswersWhereTheTablesFindThem() throws {
        var random = SeededRandom(seed: 35)
        let value = try Fixture.value("1")
        for _ in 0..<400 {
            let count = Int.random(in: 1...24, using: &random)
            let mutations: [Mutation] = (0..<count).map { index in
                let path = Fixture.path("m\(Int.random(in: 0..<30, using: &random))/k\(index)")
                return Bool.random(using: &random) ? .set(path, value) : .setPriority(path, value)
            }
            var resolved: [ResolvedMutation] = mutations.enumerated().map { index, mutation in
                switch mutation {
                case .set(let path, _): .set(path, Node(.int(Int64(index))))
                case .setPriority(let path, _): .setPriority(path, .string("p\(index)"))
                }
            }
            if Int.random(in: 0..<4, using: &random) == 0, let again = resolved.randomElement(using: &random) {
                switch again {
                case .set(let path, _): resolved.append(.set(path, Node(.int(-1))))
                case .setPriority(let path, _): resolved.append(.setPriority(path, .string("again")))
                }
            }
            if Int.random(in: 0..<5, using: &random) == 0, let other = resolved.first {
                resolved.append(.setPriority(other.path, .string("beside")))
            }
            if Int.random(in: 0..<6, using: &random) == 0 { resolved.remove(at: 0) }
            resolved.shuffle(using: &random)
            let tabled = RESTHandler.tabled(mutations, resolved)
            #expect(RESTHandler.scanned(mutations, resolved) == tabled)
            if let tabled {
                for (member, position) in zip(mutations, tabled) {
                    let last = resolved.lastIndex { RESTHandler.sameTarget(member, $0) }
                    #expect(position == last)
                }
            } else {
                #expect(!mutations.allSatisfy { member in resolved.contains { RESTHandler.sameTarget(member, $0) } })
            }
            // Answers already in the members' order (over the shorter of the two) are taken as they are.
            let inOrder = zip(mutations, resolved).allSatisfy(RESTHandler.sameTarget)
            #expect(RESTHandler.answerOrder(of: mutations, resolved) == (inOrder ? nil : tabled))
        }
    }
}
