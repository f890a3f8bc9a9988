import HearthCore
import HearthTestKit
import HearthWire
import Testing

/// The write rules REST and the realtime protocol share: paths, values, priorities, server values, updates.
@Suite struct WriteRulesTests {
    private static func path(_ text: String) throws -> Path { try Path(validating: text) }

    /// The kind, path and value of a mutation, for comparing.
    private static func describe(_ mutation: Mutation) -> (isPriority: Bool, path: Path, node: Node) {
        switch mutation {
        case .set(let path, let value): (false, path, value.node)
        case .setPriority(let path, let value): (true, path, value.node)
        }
    }

    @Test func pathsNormaliseTheWaysClientsWriteThem() throws {
        for text in ["/a/b", "a/b", "a//b/", "/a/b/"] {
            #expect(try WriteRules.location(text, allowingPriority: false) == WriteLocation(path: try Self.path("a/b")))
        }
        #expect(try WriteRules.location("/", allowingPriority: false).path == .root)
        #expect(try WriteRules.location("", allowingPriority: false).path == .root)
        #expect(
            try WriteRules.location("c/d", below: try Self.path("a/b"), allowingPriority: false).path
                == (try Self.path("a/b/c/d")))
    }

    @Test func priorityMayEndAPathOnlyWhereAllowed() throws {
        #expect(
            try WriteRules.location("/a/.priority", allowingPriority: true)
                == WriteLocation(path: try Self.path("a"), targetsPriority: true))
        #expect(throws: WriteRuleError.self) { try WriteRules.location("/a/.priority", allowingPriority: false) }
        #expect(throws: WriteRuleError.self) { try WriteRules.location("/.priority/a", allowingPriority: true) }
    }

    /// Random path texts (empty segments, non-ASCII keys, forbidden bytes, `.priority` anywhere, long keys) give
    /// what the rules say, key by key: the location, or a refusal naming the text.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomPathsFollowTheRulesKeyByKey(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let pieces = [
            "a", "é", "k1", "-5", "", "", ".priority", "a.b", "x#", "ü/ü", String(repeating: "z", count: 769),
        ]
        for round in 0..<500 {
            let text =
                (Bool.random(using: &random) ? "/" : "")
                + (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    pieces[Int.random(in: 0..<pieces.count, using: &random)]
                }.joined(separator: "/")
            let allowingPriority = Bool.random(using: &random)
            var segments = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            let targetsPriority = allowingPriority && segments.last == ".priority"
            if targetsPriority { segments.removeLast() }
            let expected = try? Path(keys: segments.map { try Key(validating: $0) }).checkedForLimits()
            let found = try? WriteRules.location(text, allowingPriority: allowingPriority)
            #expect(found?.path == expected, "seed \(seed) round \(round): \(text)")
            if let found { #expect(found.targetsPriority == targetsPriority, "seed \(seed) round \(round): \(text)") }
        }
    }

    @Test func invalidKeysDepthAndLengthAreRefusedNamingThePath() throws {
        for text in ["/a.b", "/a#", "/$x", "/a[0]", "/a]"] {
            let error = #expect(throws: WriteRuleError.self) { try WriteRules.location(text, allowingPriority: true) }
            guard case .invalidPath(let named, let reason)? = error else {
                Issue.record("\(text): \(String(describing: error))")
                continue
            }
            #expect(named == text && !reason.isEmpty)
        }
        let deep = (0..<33).map { "k\($0)" }.joined(separator: "/")
        #expect(throws: WriteRuleError.self) { try WriteRules.location(deep, allowingPriority: false) }
        #expect(
            try WriteRules.location((0..<32).map { "k\($0)" }.joined(separator: "/"), allowingPriority: false).path
                .count == 32)
        let long = String(repeating: "x", count: 700) + "/" + String(repeating: "y", count: 100)
        #expect(throws: WriteRuleError.self) { try WriteRules.location(long, allowingPriority: false) }
        let error = #expect(throws: WriteRuleError.self) {
            try WriteRules.location(
                "b", below: try Self.path((0..<32).map { "k\($0)" }.joined(separator: "/")), allowingPriority: false)
        }
        #expect(error.map { "\($0)" }?.hasPrefix("Invalid path \"b\": Path is 33 levels deep") == true)
    }

    @Test func aSetCarriesItsValueAndServerValues() throws {
        let location = WriteLocation(path: try Self.path("a"))
        let plain = try WriteRules.set(.object(["x": .int(1)]), at: location)
        #expect(
            Self.describe(plain).node
                == Node(children: ChildMap(sortedUniqueElements: [(Key(unchecked: "x"), Node(.int(1)))])))
        guard case .set(_, let stamped) = try WriteRules.set(.object([".sv": .string("timestamp")]), at: location)
        else {
            Issue.record("a server value is set, not a priority")
            return
        }
        #expect(stamped.placeholders == [ServerValuePlaceholder(path: .root, value: .timestamp, isPriority: false)])
        let removal = try WriteRules.set(.null, at: location)
        #expect(Self.describe(removal).node.isEmpty && !Self.describe(removal).isPriority)
    }

    @Test func valuesThatBreakDataRulesAreRefusedAtTheirPath() throws {
        let location = WriteLocation(path: try Self.path("a/b"))
        for json in [
            JSONValue.object(["x.y": .int(1)]), .object([".sv": .string("nope")]), .object(["$k": .bool(true)]),
            .object([".value": .int(1), "x": .int(2)]),
        ] {
            let error = #expect(throws: WriteRuleError.self) { try WriteRules.set(json, at: location) }
            guard case .invalidValue(let path, _)? = error else {
                Issue.record("\(json): \(String(describing: error))")
                continue
            }
            #expect(path == location.path)
        }
    }

    @Test func valuesMayNotReachPastTheDepthLimit() throws {
        var nested = JSONValue.int(1)
        for _ in 0..<31 { nested = .object(["k": nested]) }
        #expect(throws: Never.self) { try WriteRules.set(nested, at: WriteLocation(path: try Self.path("a"))) }
        #expect(throws: WriteRuleError.self) {
            try WriteRules.set(nested, at: WriteLocation(path: try Self.path("a/b")))
        }
    }

    @Test func prioritiesMustBeNumbersStringsNullOrServerValues() throws {
        let location = WriteLocation(path: try Self.path("a"), targetsPriority: true)
        for json in [JSONValue.int(1), .double(2.5), .string("p"), .null, .object([".sv": .string("timestamp")])] {
            #expect(Self.describe(try WriteRules.set(json, at: location)).isPriority, "\(json)")
        }
        for json in [JSONValue.bool(true), .object(["x": .int(1)])] {
            #expect(throws: WriteRuleError.invalidPriority(location.path)) { try WriteRules.set(json, at: location) }
        }
    }

    @Test func aBodyIsParsedStraightIntoATreeKeepingItsBytes() throws {
        let location = WriteLocation(path: try Self.path("a"))
        let body = Array(#"{"b":[1,2]}"#.utf8)
        guard case .set(_, let value) = try WriteRules.set(body: body, at: location) else {
            Issue.record("not a set")
            return
        }
        #expect(value.sourceJSON == body)
        guard case .set(_, let stamped) = try WriteRules.set(body: Array(#"{".sv":"timestamp"}"#.utf8), at: location)
        else {
            Issue.record("not a set")
            return
        }
        #expect(stamped.sourceJSON == nil && stamped.hasServerValues)
        let error = #expect(throws: WriteRuleError.self) { try WriteRules.set(body: Array("{nope".utf8), at: location) }
        guard case .invalidJSON? = error else {
            Issue.record("not JSON should be .invalidJSON, not \(String(describing: error))")
            return
        }
        #expect(throws: WriteRuleError.invalidPriority(location.path)) {
            try WriteRules.set(body: Array("true".utf8), at: WriteLocation(path: location.path, targetsPriority: true))
        }
    }

    @Test func anUpdateAppliesSortedKeysWithPrioritiesAndServerValues() throws {
        let members: [JSONKey: JSONValue] = [
            "z": .int(1), "posts/p1/stars/u1": .bool(true), "posts/p2/.priority": .int(3),
            "posts/p1/starCount": .object([".sv": .object(["increment": .int(1)])]),
        ]
        let mutations = try WriteRules.update(members, at: try Self.path("root"))
        #expect(mutations.count == 4)
        let described = mutations.map(Self.describe)
        #expect(
            described.map(\.path)
                == [
                    try Self.path("root/posts/p1/starCount"), try Self.path("root/posts/p1/stars/u1"),
                    try Self.path("root/posts/p2"), try Self.path("root/z"),
                ])
        #expect(described.map(\.isPriority) == [false, false, true, false])
        #expect(members.keys.sorted() == ["posts/p1/starCount", "posts/p1/stars/u1", "posts/p2/.priority", "z"])
        #expect(try WriteRules.update([:], at: .root).isEmpty)
    }

    @Test func anUpdateRefusesOverlappingPathsAndBadKeys() throws {
        for members: [JSONKey: JSONValue] in [
            ["a": .int(1), "a/b": .int(2)], ["/a/": .int(1), "a": .int(2)],
            ["posts": .object([:]), "posts/p1/x": .int(2)], ["p/.priority": .int(1), "p/x": .int(2)],
        ] {
            let error = #expect(throws: WriteRuleError.self) { try WriteRules.update(members, at: .root) }
            guard case .overlappingPaths? = error else {
                Issue.record("\(members): \(String(describing: error))")
                continue
            }
        }
        #expect(throws: Never.self) {
            try WriteRules.update(["a/b": .int(1), "a/c": .int(2), "ab": .int(3)], at: .root)
        }
        let error = #expect(throws: WriteRuleError.self) {
            try WriteRules.update(["ok": .int(1), "a.b": .int(2)], at: .root)
        }
        guard case .invalidUpdateKey(let key, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(key == "a.b")
    }

    @Test func theRealtimeProtocolWordsBrokenRulesAsInvalidData() throws {
        let a = try Self.path("a")
        let cases: [(WriteRuleError, String)] = [
            (.invalidPath("/a.b", reason: "bad"), #"Invalid path "/a.b": bad"#),
            (.invalidUpdateKey("x.y", reason: "bad"), #"Invalid path "x.y": bad"#),
            (.invalidValue(a, reason: "bad"), "Invalid data at /a: bad"),
            (.invalidPriority(a), "Invalid priority at /a: use a number, a string or null."),
            (
                .overlappingPaths(a, try Self.path("a/b")),
                "Merge paths /a and /a/b overlap; no path may equal or lie inside another."
            ),
        ]
        for (rule, message) in cases {
            #expect(WireProtocolError(rule) == WireProtocolError(.invalidData, message))
        }
    }
}

extension Path {
    /// The path, once it fits the depth and length limits.
    fileprivate func checkedForLimits() throws -> Path {
        try Path.checkLimits(self.keys)
        return self
    }
}
