import HearthCore
import Testing

@Suite struct WriteValueResolutionTests {
    private let now: Int64 = 1_700_000_000_000

    private func resolve(_ text: String, existing: String = "null") throws -> Node {
        let write = try WriteValue.parseWrite(Array(text.utf8), depth: 1)
        let current = try WriteValue.parseWrite(Array(existing.utf8), depth: 1).node
        return write.resolved(existing: current, now: self.now)
    }

    private func export(_ node: Node) -> String {
        String(decoding: node.jsonBytes(format: .export), as: UTF8.self)
    }

    @Test func timestampBecomesNow() throws {
        #expect(try self.resolve(#"{".sv":"timestamp"}"#) == Node(.int(self.now)))
        #expect(
            self.export(try self.resolve(#"{"a":{"b":{".sv":"timestamp"}},"c":1}"#))
                == #"{"a":{"b":1700000000000},"c":1}"#
        )
    }

    @Test(arguments: [
        ("5", #"{".sv":{"increment":2}}"#, LeafValue.int(7)),
        ("-5", #"{".sv":{"increment":2}}"#, .int(-3)),
        ("1.5", #"{".sv":{"increment":2}}"#, .double(3.5)),
        ("5", #"{".sv":{"increment":0.5}}"#, .double(5.5)),
        ("5.0", #"{".sv":{"increment":1}}"#, .double(6)),
        ("9223372036854775807", #"{".sv":{"increment":1}}"#, .double(9_223_372_036_854_775_808.0)),
        ("-9223372036854775808", #"{".sv":{"increment":-1}}"#, .double(-9_223_372_036_854_775_809.0)),
        ("9223372036854775806", #"{".sv":{"increment":1}}"#, .int(Int64.max)),
        ("null", #"{".sv":{"increment":3}}"#, .int(3)),
        (#""text""#, #"{".sv":{"increment":3}}"#, .int(3)),
        ("true", #"{".sv":{"increment":3.5}}"#, .double(3.5)),
        (#"{"a":1}"#, #"{".sv":{"increment":3}}"#, .int(3)),
    ])
    func incrementAddsToTheCurrentNumber(_ existing: String, _ write: String, _ expected: LeafValue) throws {
        #expect(try self.resolve(write, existing: existing).leafValue == expected)
    }

    @Test func incrementReadsItsOwnLocation() throws {
        let node = try self.resolve(
            #"{"a":{"n":{".sv":{"increment":1}}},"b":{".sv":{"increment":1}}}"#,
            existing: #"{"a":{"n":41},"b":"x"}"#
        )
        #expect(self.export(node) == #"{"a":{"n":42},"b":1}"#)
    }

    @Test func placeholdersKeepTheirOwnPriority() throws {
        let leaf = try self.resolve(#"{".value":{".sv":"timestamp"},".priority":1}"#)
        #expect(leaf == Node(.int(self.now), priority: .int(1)))
        let direct = try self.resolve(#"{".sv":"timestamp",".priority":"p"}"#)
        #expect(direct == Node(.int(self.now), priority: .string("p")))
        let parent = try self.resolve(#"{"a":{".sv":"timestamp"},".priority":5}"#)
        #expect(self.export(parent) == #"{"a":1700000000000,".priority":5}"#)
        let nested = try self.resolve(#"{"x":{"a":{".value":{".sv":{"increment":1}},".priority":"q"},".priority":2}}"#)
        #expect(self.export(nested) == #"{"x":{"a":{".value":1,".priority":"q"},".priority":2}}"#)
    }

    @Test func priorityPlaceholdersResolveAgainstTheCurrentPriority() throws {
        let stamped = try self.resolve(#"{"a":1,".priority":{".sv":"timestamp"}}"#)
        #expect(stamped.priority == .int(self.now))
        let incremented = try self.resolve(
            #"{"a":1,".priority":{".sv":{"increment":1}}}"#,
            existing: #"{"a":0,".priority":10}"#
        )
        #expect(incremented.priority == .int(11))
        let fromString = try self.resolve(
            #"{"a":1,".priority":{".sv":{"increment":1}}}"#,
            existing: #"{"a":0,".priority":"p"}"#
        )
        #expect(fromString.priority == .int(1))
        let onPlaceholderOnly = try self.resolve(#"{"a":{".sv":"timestamp"},".priority":{".sv":{"increment":2.5}}}"#)
        #expect(onPlaceholderOnly.priority == .double(2.5))
    }

    @Test func writesWithoutServerValuesComeBackUnchanged() throws {
        let write = try WriteValue.parseWrite(Array(#"{"a":1}"#.utf8), depth: 0)
        #expect(write.resolved(existing: .empty, now: self.now).isIdentical(to: write.node))
    }
}
