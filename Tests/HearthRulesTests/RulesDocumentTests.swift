import HearthCore
import Testing

@testable import HearthRules

/// Rules files: reading them (comments, mistakes with their line) and Firebase's cascade for reads and writes.
@Suite struct RulesDocumentTests {
    private static let blog = """
        {
          // The docs' blog: anyone reads posts; users write their own; posts have a title.
          "rules": {
            "posts": {
              ".read": true,
              "$postId": {
                ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid)",
                ".validate": "newData.hasChildren(['uid', 'title']) && newData.child('uid').val() === auth.uid",
                "title": { ".validate": "newData.isString() && newData.val().length <= 100" },
                "starCount": { ".validate": "newData.isNumber() && newData.val() >= 0" }
              }
            },
            /* users see and change only themselves */
            "users": {
              "$uid": { ".read": "$uid === auth.uid", ".write": "$uid === auth.uid", ".indexOn": ["name"] }
            },
            "admin": { ".read": "auth.token.admin === true", "secret": { ".read": false } }
          }
        }
        """

    private static func node(_ json: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(json), depth: 0).node
    }

    private static func path(_ text: String) throws -> Path { try Path(validating: text) }

    private static func user(_ uid: String, admin: Bool = false) -> RuleValue {
        .object(["uid": .string(uid), "token": .object(["admin": .bool(admin)])])
    }

    @Test func declaredIndexesFollowNamedChildrenThenWildcards() throws {
        let document = try RulesDocument.parse(
            #"{"rules": {"scores": {".indexOn": ["score", ".value", "a/b"]}, "$any": {".indexOn": "at"}}}"#)
        let scores = try Self.path("/scores")
        #expect(document.declares(.child(try Self.path("score")), at: scores))
        #expect(document.declares(.child(try Self.path("a/b")), at: scores))
        #expect(document.declares(.value, at: scores))
        #expect(!document.declares(.child(try Self.path("at")), at: scores), "a named child shadows the wildcard")
        #expect(document.declares(.child(try Self.path("at")), at: try Self.path("/rooms")))
        #expect(!document.declares(.child(try Self.path("at")), at: try Self.path("/rooms/r1")))
        let deep = try Self.path("/x/y")
        #expect(document.declares(.key, at: .root) && document.declares(.priority, at: deep))
    }

    @Test func readsTheBlogsRules() throws {
        let rules = try RulesDocument.parse(Self.blog)
        #expect(rules.root.children["posts"]?.read == .bool(true))
        #expect(rules.root.children["users"]?.wildcard == "$uid")
        #expect(rules.root.children["users"]?.children["$uid"]?.indexOn == ["name"])
    }

    @Test func readsCascadeAndAreNotTakenBackDeeper() throws {
        let rules = try RulesDocument.parse(Self.blog)
        let data = try Self.node(#"{"users": {"ada": {"name": "Ada"}, "bob": {"name": "Bob"}}}"#)
        #expect(rules.allowsRead(at: try Self.path("posts/p1/title"), auth: .null, data: data, now: 0))
        #expect(rules.allowsRead(at: try Self.path("users/ada/name"), auth: Self.user("ada"), data: data, now: 0))
        #expect(!rules.allowsRead(at: try Self.path("users/bob"), auth: Self.user("ada"), data: data, now: 0))
        #expect(!rules.allowsRead(at: try Self.path("users"), auth: Self.user("ada"), data: data, now: 0))
        #expect(!rules.allowsRead(at: .root, auth: Self.user("ada", admin: true), data: data, now: 0))
        #expect(
            rules.allowsRead(at: try Self.path("admin/secret"), auth: Self.user("x", admin: true), data: data, now: 0))
        #expect(
            !rules.allowsRead(at: try Self.path("elsewhere"), auth: Self.user("x", admin: true), data: data, now: 0))
    }

    @Test func writesNeedAGrantAndEveryValidationOnTheWay() throws {
        let rules = try RulesDocument.parse(Self.blog)
        let before = try Self.node(#"{"posts": {"p1": {"uid": "ada", "title": "Hi", "starCount": 1}}}"#)
        func write(_ path: String, _ json: String, as uid: String?) throws -> Bool {
            let target = try Self.path(path)
            let after = before.setting(try Self.node(json), at: target)
            return rules.allowsWrite(
                at: target, auth: uid.map { Self.user($0) } ?? .null, before: before, after: after, now: 0)
        }
        #expect(try write("posts/p2", #"{"uid": "bob", "title": "Mine"}"#, as: "bob"))
        #expect(try !write("posts/p2", #"{"uid": "ada", "title": "Forged"}"#, as: "bob"))
        #expect(try !write("posts/p2", #"{"uid": "bob"}"#, as: "bob"))
        #expect(try !write("posts/p2", #"{"uid": "bob", "title": 5}"#, as: "bob"))
        #expect(try !write("posts/p1/title", #""Taken over""#, as: "bob"))
        #expect(try write("posts/p1/title", #""Edited""#, as: "ada"))
        #expect(try !write("posts/p1/starCount", "-1", as: "ada"))
        #expect(try write("posts/p1/starCount", "2", as: "ada"))
        #expect(try !write("posts/p2", #"{"uid": "bob", "title": "Mine"}"#, as: nil))
        #expect(try write("users/bob/name", #""Bob""#, as: "bob"))
        #expect(try !write("users/ada/name", #""Eve""#, as: "bob"))
    }

    @Test func writeChecksReadNewDataOnlyWhenARuleCanSeeIt() throws {
        func readsNewData(_ rules: String) throws -> Bool {
            try RulesDocument.parse(#"{"rules": "# + rules + "}").writesReadNewData
        }
        #expect(try !readsNewData(#"{".read": true, ".write": true}"#))
        #expect(try !readsNewData(#"{"users": {"$uid": {".write": "auth != null && auth.uid == $uid"}}}"#))
        #expect(try readsNewData(#"{"a": {"b": {".validate": true}}}"#))
        #expect(try readsNewData(#"{"$any": {".write": "data.exists() || newData.child('x').val() == 1"}}"#))
        #expect(try readsNewData(#"{".write": "auth != null ? [newData][0].exists() : false"}"#))
        #expect(try RulesDocument.parse(Self.blog).writesReadNewData)
    }

    @Test func writeChecksReadStoredDataOnlyWhenARuleCanSeeIt() throws {
        func readsData(_ rules: String) throws -> Bool {
            try RulesDocument.parse(#"{"rules": "# + rules + "}").writesReadData
        }
        #expect(try !readsData(#"{".read": true, ".write": true}"#))
        #expect(try !readsData(#"{"users": {"$uid": {".write": "auth != null && auth.uid == $uid"}}}"#))
        #expect(try !readsData(#"{".read": "data.exists()", ".write": "auth != null"}"#))
        #expect(try readsData(#"{"a": {"$b": {".write": "!data.exists()"}}}"#))
        #expect(try readsData(#"{"a": {".write": "root.child('admins').child(auth.uid).exists()"}}"#))
        #expect(try readsData(#"{"a": {"b": {".validate": "newData.isNumber()"}}}"#))
        #expect(try readsData(#"{".write": "newData.exists()"}"#))
        #expect(try RulesDocument.parse(Self.blog).writesReadData)
    }

    @Test func aMistakeIsRefusedWithItsLine() {
        let cases: [(String, String, Int)] = [
            ("{\"rules\": {\n  \"a\": {\n    \".read\": \"auth.uid ==\"\n  }\n}}", "Unexpected end of expression.", 3),
            (
                "{\"rules\": {\n  \"a\": { \".reed\": true }\n}}",
                "Unknown rule .reed; use .read, .write, .validate or .indexOn.", 2
            ),
            ("{\"rules\": {\n  \"$a\": {},\n  \"$b\": {}\n}}", "Two wildcards at one level: $a and $b; keep one.", 3),
            (
                "{\"rules\": {\n  \"a\": { \".write\": 1 }\n}}",
                ".write must be a boolean or an expression in a string.", 2
            ),
            ("{\"rules\": {} /* open", "Unterminated comment.", 1),
            ("{\"other\": {}}", "The file must be an object with one member, \"rules\".", 1),
        ]
        for (text, message, line) in cases {
            do {
                _ = try RulesDocument.parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.message == message)
                #expect(error.line == line, "\(message)")
                #expect(error.description.hasPrefix("Error saving rules - Line \(line): "))
            }
        }
    }
}
