import HearthCore
import Testing

@testable import HearthRules

/// Evaluating rule expressions against identities and data, from Firebase's documented examples.
@Suite struct RuleEvaluatorTests {
    private static func node(_ json: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(json), depth: 0).node
    }

    private static func path(_ text: String) throws -> Path { try Path(validating: text) }

    private static let ada = RuleValue.object([
        "uid": .string("ada"), "provider": .string("password"),
        "token": .object(["email": .string("ada@math.org"), "email_verified": .bool(true), "admin": .bool(true)]),
    ])

    private func grants(_ expression: String, _ context: RuleContext) throws -> Bool {
        RuleEvaluator(context: context).grants(try RuleParser.parse(expression))
    }

    @Test func userOwnedDataAndAuth() throws {
        let context = RuleContext(auth: Self.ada, path: try Self.path("users/ada"), wildcards: ["$uid": "ada"])
        #expect(try self.grants("$uid === auth.uid", context))
        #expect(try self.grants("auth != null && auth.token.email_verified == true", context))
        #expect(try self.grants("auth.token.email.endsWith('@math.org')", context))
        #expect(try self.grants("auth.token['admin'] === true && auth.provider == 'password'", context))
        var anonymous = context
        anonymous.auth = .null
        #expect(try !self.grants("$uid === auth.uid", anonymous))
        #expect(try !self.grants("auth.uid == 'ada'", anonymous))
        #expect(try !self.grants("auth != null && auth.uid == 'ada'", anonymous))
        #expect(try self.grants("auth == null || auth.uid == 'nobody'", anonymous))
    }

    @Test func dataNewDataAndRoot() throws {
        let before = try Self.node(#"{"users": {"ada": {"name": "Ada", "age": 36}}, "admins": {"bob": true}}"#)
        let after = try Self.node(#"{"users": {"ada": {"name": "Ada L", "age": 37}}, "admins": {"bob": true}}"#)
        let context = RuleContext(
            auth: Self.ada, before: before, after: after, path: try Self.path("users/ada"), now: 1_700_000_000_000)
        #expect(try self.grants("data.child('name').val() == 'Ada' && newData.child('name').val() == 'Ada L'", context))
        #expect(
            try self.grants(
                "newData.child('age').isNumber() && newData.child('age').val() > data.child('age').val()", context))
        #expect(try self.grants("newData.hasChildren(['name', 'age']) && !newData.hasChild('email')", context))
        #expect(try self.grants("newData.child('name').val().length < 10", context))
        #expect(
            try self.grants(
                "root.child('admins').hasChild('bob') && data.parent().parent().child('admins/bob').val() == true",
                context))
        #expect(try self.grants("data.exists() && newData.parent().child('ada/age').val() === 37", context))
        #expect(try self.grants("now > 1600000000000", context))
        #expect(try !self.grants("newData.child('name').isNumber()", context))
        #expect(try !self.grants("newData.child('missing').exists()", context))
        #expect(try self.grants("newData.child('missing').val() == null", context))
        #expect(try !self.grants("root.parent().exists()", context))
    }

    @Test func stringsAndRegularExpressions() throws {
        let context = RuleContext(after: try Self.node(#"{"email": "Ada@Math.org", "tag": "a-b-c"}"#))
        #expect(try self.grants("newData.child('email').val().matches(/^[^@]+@[a-z.]+$/i)", context))
        #expect(try !self.grants("newData.child('email').val().matches(/^[^@]+@[a-z.]+$/)", context))
        #expect(try self.grants("newData.child('email').val().toLowerCase() == 'ada@math.org'", context))
        #expect(try self.grants("newData.child('tag').val().replace('-', '') == 'abc'", context))
        #expect(
            try self.grants(
                "newData.child('tag').val().contains('b-') && newData.child('tag').val().beginsWith('a')", context))
        #expect(try self.grants("'x' + 1 == 'x1' && 2 + 3 == 5 && 7 % 4 == 3", context))
    }

    @Test func noCoercionAndErrorsGrantNothing() throws {
        let context = RuleContext(after: try Self.node(#"{"n": 5, "s": "5"}"#))
        #expect(try !self.grants("newData.child('n').val() == newData.child('s').val()", context))
        #expect(try !self.grants("newData.child('n').val() < 'x'", context))
        #expect(try !self.grants("newData.child('n').val().length > 0", context))
        #expect(try !self.grants("unknownVariable == null", context))
        #expect(try !self.grants("1 && true", context))
        #expect(try !self.grants("newData.child('n').val()", context))
        #expect(throws: RuleSyntaxError.self) { try RuleParser.parse("newData.child('s').val().matches(/[/)") }
        let evaluator = RuleEvaluator(context: context)
        #expect(throws: RuleEvaluationError.self) { try evaluator.evaluate(try RuleParser.parse("'a'.nope()")) }
    }

    @Test func queryBasedRules() throws {
        let query = RuleValue.object([
            "orderByChild": .string("owner"), "equalTo": .string("ada"), "limitToFirst": .number(10),
            "orderByKey": .bool(false),
        ])
        let context = RuleContext(auth: Self.ada, query: query)
        #expect(try self.grants("query.orderByChild == 'owner' && query.equalTo == auth.uid", context))
        #expect(try self.grants("query.limitToFirst <= 100", context))
        #expect(try !self.grants("query.limitToLast <= 100", context))
    }
}
