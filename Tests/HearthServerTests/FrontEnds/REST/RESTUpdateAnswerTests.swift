import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds

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
            let ordered = RESTHandler.inOrder(of: mutations, shuffled)
            #expect(RESTHandler.updateAnswer(keys: keys, ordered, capacity: 0) == expected)
        }
        #expect(String(decoding: expected, as: UTF8.self).hasPrefix(#"{"a/.priority":"p0","#))
    }
}
