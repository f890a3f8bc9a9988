import HearthCore
import Testing

@testable import HearthRules

/// What a rules check read: the locations a write decided on must still hold when it is made.
@Suite struct RuleReadsTests {
    private static func node(_ json: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(json), depth: 0).node
    }

    private static func path(_ text: String) throws -> Path { try Path(validating: text) }

    private static func verdict(_ rules: String, at paths: [String], before: String, after: String) throws
        -> RuleVerdict
    {
        let document = try RulesDocument.parse(rules)
        return document.checkWrite(
            at: try paths.map(Self.path), auth: .object(["uid": .string("ada")]), before: try Self.node(before),
            after: try Self.node(after), now: 0)
    }

    @Test func rulesThatReadOnlyAuthAndTheWrittenValueDependOnNothing() throws {
        let verdict = try Self.verdict(
            #"{"rules": {"posts": {"$p": {"stars": {"$uid": {".write": "$uid === auth.uid", ".validate": "newData.isBoolean()"}}}}}}"#,
            at: ["/posts/p1/stars/ada"], before: "{}", after: #"{"posts":{"p1":{"stars":{"ada":true}}}}"#)
        #expect(verdict.isAllowed)
        #expect(verdict.reads.dependencies(determined: [try Self.path("/posts/p1/stars/ada")]).isEmpty)
    }

    @Test func dataRootAndNewDataOutsideTheWriteAreDependencies() throws {
        let rules = #"""
            {"rules": {
              "usernames": {"$name": {".write": "!data.exists() && root.child('users/' + auth.uid).exists()"}},
              "users": {"$uid": {".write": true}},
              "profiles": {"$uid": {".write": true, ".validate": "newData.parent().child('count').val() < 10"}}
            }}
            """#
        let claim = try Self.verdict(
            rules, at: ["/usernames/ada"], before: #"{"users":{"ada":1}}"#,
            after: #"{"users":{"ada":1},"usernames":{"ada":"ada"}}"#)
        #expect(claim.isAllowed)
        #expect(
            Set(claim.reads.dependencies(determined: [try Self.path("/usernames/ada")]))
                == [try Self.path("/usernames/ada"), try Self.path("/users/ada")])
        let profile = try Self.verdict(
            rules, at: ["/profiles/ada"], before: #"{"profiles":{"count":3}}"#,
            after: #"{"profiles":{"count":3,"ada":"x"}}"#)
        #expect(profile.isAllowed)
        #expect(
            profile.reads.dependencies(determined: [try Self.path("/profiles/ada")])
                == [try Self.path("/profiles/count")])
    }

    @Test func anIncrementsKindIsKnownButItsValueIsNot() throws {
        let path = try Self.path("/posts/p1/starCount")
        let kind = try Self.verdict(
            #"{"rules": {"posts": {"$p": {"starCount": {".write": true, ".validate": "newData.isNumber()"}}}}}"#,
            at: ["/posts/p1/starCount"], before: "{}", after: #"{"posts":{"p1":{"starCount":1}}}"#)
        #expect(kind.isAllowed)
        #expect(kind.reads.dependencies(determined: [], kindDetermined: [path]).isEmpty)
        #expect(kind.reads.dependencies(determined: []) == [path], "without the increment the kind is the data's")
        let value = try Self.verdict(
            #"{"rules": {"posts": {"$p": {"starCount": {".write": true, ".validate": "newData.val() >= 0"}}}}}"#,
            at: ["/posts/p1/starCount"], before: "{}", after: #"{"posts":{"p1":{"starCount":1}}}"#)
        #expect(value.reads.dependencies(determined: [], kindDetermined: [path]) == [path])
    }

    @Test func aReadInsideAnotherReadIsCoveredByIt() {
        var reads = RuleReads()
        for text in ["/a/b/c", "/a", "/x/y", "/a/q"] {
            reads.record(RuleSnapshot(root: .empty, path: (try? Path(validating: text)) ?? .root))
        }
        reads.record(RuleSnapshot(root: .empty, path: (try? Path(validating: "/w/z")) ?? .root, isNewData: true))
        let dependencies = reads.dependencies(determined: [(try? Path(validating: "/w")) ?? .root])
        #expect(Set(dependencies.map(\.description)) == ["/a", "/x/y"])
    }

    @Test func aMultiPathWriteIsAllowedOnlyWhenEveryPathIs() throws {
        let rules = #"{"rules": {"open": {".write": true}, "closed": {".write": false}}}"#
        #expect(
            try Self.verdict(rules, at: ["/open/a", "/open/b"], before: "{}", after: #"{"open":{"a":1,"b":2}}"#)
                .isAllowed)
        #expect(
            !(try Self.verdict(rules, at: ["/open/a", "/closed/b"], before: "{}", after: #"{"open":{"a":1}}"#)
                .isAllowed))
    }

    @Test func comparingSnapshotsIsAnErrorNotAHiddenRead() throws {
        let document = try RulesDocument.parse(#"{"rules": {".write": "data == newData"}}"#)
        #expect(!document.allowsWrite(at: .root, auth: .null, before: .empty, after: try Self.node("1"), now: 0))
    }

    @Test func queriesAsRulesSeeThem() throws {
        let query = try QuerySpec(
            index: .child(try Self.path("owner")), start: QueryBound(.string("ada")), end: QueryBound(.string("ada")),
            limit: QueryLimit(count: 10, anchor: .first))
        guard case .object(let members) = RuleValue(query: query) else {
            Issue.record("a query is an object to rules")
            return
        }
        #expect(members["orderByChild"] == .string("owner"))
        #expect(members["equalTo"] == .string("ada") && members["startAt"] == .null)
        #expect(members["limitToFirst"] == .number(10) && members["limitToLast"] == .null)
        #expect(members["orderByKey"] == .bool(false))
        guard case .object(let plain) = RuleValue(query: .default) else { return }
        #expect(plain["orderByPriority"] == .bool(false) && plain["orderByChild"] == .null)
    }
}
