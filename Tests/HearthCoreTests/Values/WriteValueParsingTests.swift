import HearthCore
import HearthTestKit
import Testing

@Suite struct WriteValueParsingTests {
    private func write(_ text: String, depth: Int = 0) throws -> WriteValue {
        try WriteValue.parseWrite(Array(text.utf8), depth: depth)
    }

    private func plain(_ text: String) throws -> String {
        String(decoding: try self.write(text).node.jsonBytes(format: .export), as: UTF8.self)
    }

    /// The data-rule error for `text`, checking that the JSONValue path reports the same one.
    private func dataError(_ text: String, depth: Int = 0) throws -> PathError {
        let error = try #require(throws: PathError.self) { try self.write(text, depth: depth) }
        let json = try JSONReader.parseValue(text)
        let viaValue = try #require(throws: PathError.self) { try WriteValue(json: json, depth: depth) }
        #expect(viaValue.code == error.code, "\(text)")
        return error
    }

    @Test func arraysBecomeObjectsKeyedByIndex() throws {
        #expect(try self.plain(#"["a",null,"c"]"#) == #"{"0":"a","2":"c"}"#)
        #expect(try self.plain(#"{"x":[[1],[]]}"#) == #"{"x":{"0":{"0":1}}}"#)
    }

    @Test(arguments: [
        "null", "{}", "[]", "[null,null]", #"{"a":null}"#, #"{"a":{"b":{}},"c":[]}"#, #"{".priority":1}"#,
    ])
    func emptyValuesAreAbsent(_ text: String) throws {
        let value = try self.write(text)
        #expect(value.node.isEmpty)
        #expect(!value.hasServerValues)
    }

    @Test func prioritiesAttachToTheirNode() throws {
        #expect(try self.write(#"{"a":1,".priority":2}"#).node.priority == .int(2))
        #expect(try self.write(#"{"a":1,".priority":2.5}"#).node.priority == .double(2.5))
        #expect(try self.write(#"{"a":1,".priority":"p"}"#).node.priority == .string("p"))
        #expect(try self.write(#"{"a":1,".priority":null}"#).node.priority == nil)
        #expect(
            try self.write(#"{".priority":3,"a":{"b":true,".priority":"x"}}"#).node.child(Key(unchecked: "a")).priority
                == .string("x")
        )
    }

    @Test(arguments: [
        #"{"a":1,".priority":true}"#, #"{"a":1,".priority":{}}"#, #"{"a":1,".priority":{"x":1}}"#,
        #"{"a":1,".priority":[1]}"#, #"{"a":1,".priority":{".sv":"timestamp",".priority":1}}"#,
    ])
    func invalidPrioritiesAreRejected(_ text: String) throws {
        let error = try self.dataError(text)
        #expect(error.message.contains(".priority"))
    }

    @Test func dotValueMakesALeaf() throws {
        let node = try self.write(#"{".value":"v",".priority":1}"#).node
        #expect(node == Node(.string("v"), priority: .int(1)))
        #expect(try self.write(#"{".value":7}"#).node == Node(.int(7)))
        #expect(try self.write(#"{".value":null,".priority":1}"#).node.isEmpty)
    }

    @Test(arguments: [#"{".value":1,"a":2}"#, #"{"a":2,".value":1}"#, #"{".value":1,"a":null}"#])
    func dotValueBesideChildrenIsRejected(_ text: String) throws {
        let error = try self.dataError(text)
        #expect(error.message.contains(".value"))
    }

    @Test func serverValuesBecomePlaceholders() throws {
        let value = try self.write(#"{"t":{".sv":"timestamp"},"n":{"m":{".sv":{"increment":2}}},"x":1}"#, depth: 3)
        #expect(value.node == Node(children: ChildMap(sortedUniqueElements: [(Key(unchecked: "x"), Node(.int(1)))])))
        let placeholders = value.placeholders.sorted { $0.path < $1.path }
        #expect(
            placeholders == [
                ServerValuePlaceholder(
                    path: try Path(validating: "n/m"),
                    value: .increment(.int(2)),
                    isPriority: false
                ),
                ServerValuePlaceholder(path: try Path(validating: "t"), value: .timestamp, isPriority: false),
            ]
        )
        let root = try self.write(#"{".sv":{"increment":-1.5}}"#)
        #expect(root.node.isEmpty)
        #expect(
            root.placeholders == [
                ServerValuePlaceholder(path: .root, value: .increment(.double(-1.5)), isPriority: false)
            ]
        )
        let priority = try self.write(#"{"a":1,".priority":{".sv":"timestamp"}}"#)
        #expect(priority.placeholders == [ServerValuePlaceholder(path: .root, value: .timestamp, isPriority: true)])
    }

    @Test(arguments: [
        #"{".sv":"now"}"#, #"{".sv":1}"#, #"{".sv":{"increment":"1"}}"#, #"{".sv":{"increment":1,"x":2}}"#,
        #"{".sv":{"decrement":1}}"#, #"{".sv":{}}"#, #"{".sv":[1]}"#, #"{".sv":{"increment":{"a":1}}}"#,
        #"{".sv":{"increment":[1]}}"#, #"{".sv":{"increment":null}}"#, #"{".sv":"timestamp","a":1}"#,
        #"{".sv":"timestamp",".value":1}"#,
    ])
    func otherServerValueFormsAreRejected(_ text: String) throws {
        let error = try self.dataError(text)
        #expect(error.message.contains(".sv"))
    }

    @Test(arguments: [
        (#"{".foo":1}"#, ".foo"), (#"{"a":{".info":1}}"#, ".info"), (#"{"a/b":1}"#, "a/b"),
        (#"{"a$":1}"#, "a$"), (#"{"":1}"#, "\"\""), (#"{"x":{"y[":1}}"#, "y["), ("{\"a\\u0001\":1}", "a\\u{1}"),
    ])
    func invalidKeysAreRejectedByName(_ text: String, _ key: String) throws {
        let error = try self.dataError(text)
        #expect(error.code == .invalidKey)
        #expect(error.message.contains(key), "\(error.message)")
    }

    @Test func errorsNameWhereTheProblemIs() throws {
        let error = try self.dataError(#"{"users":{"ada":{".priority":true}}}"#)
        #expect(error.message.contains("\"users/ada/.priority\""), "\(error.message)")
        let keyError = try self.dataError(#"{"users":[{"ok":1,"bad.key":1}]}"#)
        #expect(keyError.message.contains("bad.key"))
    }

    @Test func stringsUpTo10MiBAreAccepted() throws {
        let limit = 10 * 1024 * 1024
        let longest = "\"" + String(repeating: "x", count: limit) + "\""
        #expect(try self.write(longest).node.leafValue == .string(String(repeating: "x", count: limit)))
        let error = try self.dataError("{\"a\":\"" + String(repeating: "é", count: limit / 2 + 1) + "\"}")
        #expect(error.code == .invalidValue)
    }

    @Test func nonFiniteNumbersFromMessagesAreRejected() {
        #expect(throws: PathError.self) { try WriteValue(json: .object(["a": .double(.nan)]), depth: 0) }
        #expect(throws: PathError.self) { try WriteValue(json: .double(.infinity), depth: 0) }
        #expect(throws: JSONError.self) { try self.write("[1e999]") }
    }

    @Test func depthCountsTheWritePathAndChildKeys() throws {
        #expect(try self.write(#"{"a":1}"#, depth: 31).node.childCount == 1)
        #expect(try self.write("1", depth: 32).node == Node(.int(1)))
        #expect(try self.write(#"{".value":1,".priority":2}"#, depth: 32).node.priority == .int(2))
        #expect(try self.write(#"{".sv":{"increment":1}}"#, depth: 32).placeholders.count == 1)
        #expect(try self.dataError(#"{"a":{"b":1}}"#, depth: 31).code == .pathTooDeep)
        #expect(try self.dataError(#"[[1]]"#, depth: 31).code == .pathTooDeep)
        let deep = String(repeating: "{\"k\":", count: 33) + "1" + String(repeating: "}", count: 33)
        let error = try self.dataError(deep)
        #expect(error.code == .pathTooDeep)
        #expect(error.message.contains("33"))
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        #expect(try self.plain(#"{"a":1,"b":2,"a":3}"#) == #"{"a":3,"b":2}"#)
        #expect(try self.plain(#"{"a":1,"a":null}"#) == "null")
        let value = try self.write(#"{"a":{".sv":"timestamp"},"a":5}"#)
        #expect(value.placeholders.isEmpty)
        #expect(value.node.child(Key(unchecked: "a")) == Node(.int(5)))
    }

    @Test func childrenArriveInAnyOrder() throws {
        #expect(try self.plain(#"{"b":1,"10":2,"a":3,"2":4,"-1":5}"#) == #"{"-1":5,"2":4,"10":2,"a":3,"b":1}"#)
    }

    @Test func syntaxErrorsAreJSONErrors() {
        #expect(throws: JSONError.self) { try self.write(#"{"a":1,}"#) }
    }

    /// Random documents give the same write through bytes and through `JSONValue`.
    @Test func bytesAndMessageValuesAgree() throws {
        for seed in UInt64(1)...200 {
            var random = SeededRandom(seed: seed)
            let node = JSONGenerators.node(&random, depth: 4, priorities: true)
            let bytes = node.jsonBytes(format: .export)
            let viaBytes = try WriteValue.parseWrite(bytes, depth: 2)
            let viaValue = try WriteValue(json: try JSONReader.parseValue(bytes), depth: 2)
            #expect(viaBytes.node == node, "seed \(seed)")
            #expect(viaValue.node == node, "seed \(seed)")
        }
    }
}
