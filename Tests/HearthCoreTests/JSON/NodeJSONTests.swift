import HearthCore
import HearthTestKit
import Testing

@Suite struct NodeJSONTests {
    private func tree(_ text: String) throws -> Node {
        try WriteValue.parseWrite(Array(text.utf8), depth: 0).node
    }

    private func plain(_ node: Node, pretty: Bool = false) -> String {
        String(decoding: node.jsonBytes(format: .plain, pretty: pretty), as: UTF8.self)
    }

    private func export(_ node: Node) -> String {
        String(decoding: node.jsonBytes(format: .export), as: UTF8.self)
    }

    @Test func emptyNodeIsNull() {
        #expect(self.plain(.empty) == "null")
        #expect(self.export(.empty) == "null")
        #expect(String(decoding: Node.empty.shallowJSONBytes(), as: UTF8.self) == "null")
        #expect(Node.empty.jsonValue(format: .plain) == .null)
    }

    /// Reference §6: `{"0":a,"1":b,"3":d}` → `[a,b,null,d]`; `{"0":a,"5":b}` stays an object.
    @Test func arrayRuleFromTheReference() throws {
        #expect(self.plain(try self.tree(#"{"0":"a","1":"b","3":"d"}"#)) == #"["a","b",null,"d"]"#)
        #expect(self.plain(try self.tree(#"{"0":"a","5":"b"}"#)) == #"{"0":"a","5":"b"}"#)
    }

    @Test(arguments: [
        (#"{"0":1}"#, "[1]"),
        (#"{"1":1}"#, "[null,1]"),
        (#"{"2":1}"#, #"{"2":1}"#),
        (#"{"0":1,"2":3}"#, "[1,null,3]"),
        (#"{"0":1,"3":3}"#, "[1,null,null,3]"),
        (#"{"0":1,"4":4}"#, #"{"0":1,"4":4}"#),
        (#"{"1":1,"2":2,"4":4}"#, "[null,1,2,null,4]"),
        (#"{"0":1,"a":2}"#, #"{"0":1,"a":2}"#),
        (#"{"00":1,"1":2}"#, #"{"00":1,"1":2}"#),
        (#"{"-1":1,"0":2}"#, #"{"-1":1,"0":2}"#),
        (#"{"0":{"0":true,"1":false}}"#, "[[true,false]]"),
        (#"[1,2,3]"#, "[1,2,3]"),
        (#"[null,null,1]"#, #"{"2":1}"#),
        (#"[1,null,null,null,2]"#, #"{"0":1,"4":2}"#),
    ])
    func arrayRuleCases(_ input: String, _ expected: String) throws {
        #expect(self.plain(try self.tree(input)) == expected)
    }

    @Test func plainFormDropsPriorities() throws {
        let node = try self.tree(#"{"a":{".value":1,".priority":5},"b":{"c":true,".priority":"p"},".priority":2}"#)
        #expect(self.plain(node) == #"{"a":1,"b":{"c":true}}"#)
    }

    @Test func exportFormKeepsPrioritiesAndNeverWritesArrays() throws {
        let node = try self.tree(#"{"0":{".value":1,".priority":5},"1":{"c":true,".priority":"p"},".priority":2.5}"#)
        #expect(
            self.export(node) == #"{"0":{".value":1,".priority":5},"1":{"c":true,".priority":"p"},".priority":2.5}"#
        )
        #expect(self.export(try self.tree("[1,2]")) == #"{"0":1,"1":2}"#)
        #expect(self.export(try self.tree(#"{".value":"x",".priority":1}"#)) == #"{".value":"x",".priority":1}"#)
        #expect(self.export(try self.tree(#""x""#)) == #""x""#)
    }

    /// Export output parsed as a write gives back the same tree, priorities included.
    @Test func exportRoundTripsThroughTheWriteParser() throws {
        for seed in UInt64(1)...200 {
            var random = SeededRandom(seed: seed)
            let node = JSONGenerators.node(&random, depth: 4, priorities: true)
            let bytes = node.jsonBytes(format: .export, pretty: seed.isMultiple(of: 3))
            let parsed = try WriteValue.parseWrite(bytes, depth: 0)
            #expect(parsed.node == node, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            #expect(parsed.placeholders.isEmpty)
        }
    }

    @Test func plainFormMatchesItsJSONValue() throws {
        for seed in UInt64(1)...200 {
            var random = SeededRandom(seed: seed)
            let node = JSONGenerators.node(&random, depth: 4, priorities: true)
            for format in [NodeJSONFormat.plain, .export] {
                let viaBytes = try JSONReader.parseValue(node.jsonBytes(format: format))
                #expect(viaBytes == node.jsonValue(format: format), "seed \(seed), \(format)")
            }
        }
    }

    @Test func shallowFormListsChildrenAsTrue() throws {
        let node = try self.tree(#"{"b":{"x":1},"a":2,"c":[1]}"#)
        #expect(String(decoding: node.shallowJSONBytes(), as: UTF8.self) == #"{"a":true,"b":true,"c":true}"#)
        let leaf = try self.tree(#"{".value":"s",".priority":1}"#)
        #expect(String(decoding: leaf.shallowJSONBytes(), as: UTF8.self) == #""s""#)
        #expect(
            String(decoding: node.shallowJSONBytes(pretty: true), as: UTF8.self)
                == "{\n  \"a\": true,\n  \"b\": true,\n  \"c\": true\n}"
        )
    }

    @Test func prettyTreesIndent() throws {
        let node = try self.tree(#"{"a":[1,2],"b":{"c":"d"}}"#)
        #expect(
            self.plain(node, pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": \"d\"\n  }\n}"
        )
    }

    @Test func jsonValueAppliesTheSameRules() throws {
        let node = try self.tree(#"{"list":{"0":"a","2":"c"},"leaf":{".value":1,".priority":"p"}}"#)
        #expect(
            node.jsonValue(format: .plain)
                == .object(["list": .array([.string("a"), .null, .string("c")]), "leaf": .int(1)])
        )
        #expect(
            node.jsonValue(format: .export)
                == .object([
                    "list": .object(["0": .string("a"), "2": .string("c")]),
                    "leaf": .object([".value": .int(1), ".priority": .string("p")]),
                ])
        )
    }
}
