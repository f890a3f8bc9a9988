import HearthCore
import HearthRules
import HearthTestKit

/// JSON bodies, rules documents and expressions, and the credentials clients present.
extension FuzzTargets {
    /// JSON as clients send it: the generic reader (with a round trip through the writer) and the write parser
    /// that applies Firebase's data rules (priorities, server values, depth, keys); an exported write reads back.
    /// Where the `json` target's inputs are read as PATCH bodies.
    static let patchBase = Path(keys: [Key(unchecked: "posts"), Key(unchecked: "p1")])

    static let json = FuzzTarget(
        name: "json",
        summary: "JSON reader and writer (round trip), write bodies under Firebase's data rules, PATCH bodies",
        texts: [
            #"{"a":{"b":[1,2.5,-3e7,true,false,null,"s\u00e9\n\"x\\"]},"c":{".priority":1,".value":"v"}}"#,
            #"{".sv":"timestamp"}"#, #"{"n":{".sv":{"increment":1e308}},".priority":{".sv":"timestamp"}}"#,
            #"[null,{"0":1},[[[]]],"\ud83d\ude00",12345678901234567890,0.1e-5]"#, #"  "text"  "#, "-0", "1E+2",
            #"{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":{"k":{"l":1}}}}}}}}}}}}"#,
        ],
        tokens: [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u0000", "null", "true", "false",
            "-",
            ".", "e", "E+", "\".priority\":", "\".value\":", "\".sv\":", "\"timestamp\"", "{\"increment\":", "\"$k\"",
            "\"a/b\"", "\"[\"", String(repeating: "[", count: 100), String(repeating: "{\"a\":", count: 40),
        ]
    ) { input throws(FuzzViolation) in
        let value = try? JSONReader.parseValue(input)
        if let mismatch = WriteDecoderDifferential.updateMismatch(body: input, at: Self.patchBase) {
            throw FuzzViolation("a PATCH body read directly differs from the general way: \(mismatch)")
        }
        if let value {
            let written = value.jsonBytes()
            let again: JSONValue
            do {
                again = try JSONReader.parseValue(written)
            } catch {
                throw FuzzViolation("the writer's \(Self.text(written)) does not read back: \(error)")
            }
            try FuzzViolation.check(again.jsonBytes() == written, "\(Self.text(written)) does not round-trip")
        }
        guard let write = try? WriteValue.parseWrite(input, depth: 1) else { return value != nil }
        let exported = write.node.jsonBytes(format: .export)
        do {
            let back = try WriteValue.parseWrite(exported, depth: 1).node
            try FuzzViolation.check(
                back.jsonBytes(format: .export) == exported, "the export \(Self.text(exported)) does not round-trip")
        } catch let violation as FuzzViolation {
            throw violation
        } catch {
            throw FuzzViolation("the export \(Self.text(exported)) of an accepted write is refused: \(error)")
        }
        return true
    }

    /// A rules document from `PUT /.settings/rules.json`: parsed, or refused with a place inside the text; a
    /// parsed one decides reads and writes.
    static let rules = FuzzTarget(
        name: "rules",
        summary: "rules documents: JSON with comments, rule keys, expressions; checks of reads and writes",
        texts: [
            #"""
            {
              // a comment with "quotes" and /* nested */ marks
              "rules": {
                ".read": "auth != null && root.child('admins/' + auth.uid).exists()",
                "posts": {
                  ".indexOn": ["starCount", ".value"],
                  "$post": {
                    ".write": "!data.exists() || data.child('uid').val() === auth.uid",
                    ".validate": "newData.hasChildren(['uid', 'title']) && newData.child('title').val().length < 100",
                    "starCount": { ".validate": "newData.isNumber() && newData.val() >= 0" }
                  }
                }
              }
            }
            """#,
            #"{"rules":{".read":true,".write":"now > 0 && query.limitToFirst <= 50","$a":{"$b":{".read":"$a == $b"}}}}"#,
        ],
        tokens: [
            "{", "}", "[", "]", "\"", ":", ",", "//", "/*", "*/", "\n", ".read", ".write", ".validate", ".indexOn",
            "$x",
            "true", "false", "null", "auth", "data", "newData", "root", "(", ")", "'", "&&", "||", "!", "===", "+", "?",
            "\\", "é", "\u{0}", "1e999", "-", "query.orderByKey", "now",
        ]
    ) { input throws(FuzzViolation) in
        let text = Self.text(input)
        let document: RulesDocument
        do throws(RulesError) {
            document = try RulesDocument.parse(text)
        } catch {
            let lines = text.utf8.filter { $0 == 10 }.count + 1
            try FuzzViolation.check(
                (1...lines).contains(error.line) && error.column >= 1
                    && error.description.hasPrefix("Error saving rules - Line "),
                "\(error) points outside the text, or is not worded as Firebase words it")
            return false
        }
        let context = Self.ruleContext
        let lines = text.utf8.filter { $0 == 10 }.count + 1
        var verdicts: [RuleVerdict] = []
        for path in Self.rulePaths {
            verdicts.append(document.checkRead(at: path, auth: context.auth, data: context.before, now: context.now))
        }
        verdicts.append(
            document.checkWrite(
                at: Self.rulePaths, auth: context.auth, before: context.before, after: context.after,
                now: context.now))
        // The playground's answer: the deciding rule is one the file has, at a place inside the text.
        for decider in verdicts.compactMap(\.decider) {
            let position = RulesDocument.position(of: document.ruleKeys(of: decider), in: text)
            try FuzzViolation.check(
                (1...lines).contains(position.line) && position.column >= 1,
                "the rule deciding at \(decider.path) is placed at \(position), outside the text")
        }
        return true
    }

    /// One rule expression, parsed or refused with an offset, and a parsed one evaluated against data.
    static let ruleExpression = FuzzTarget(
        name: "rule-expression", summary: "rule expressions: parser and evaluator (operators, methods, variables)",
        texts: [
            "auth != null && root.child('admins').child(auth.uid).val() === true",
            "newData.hasChildren(['b', 'c']) || data.child($x).isString() && newData.val().length > 2",
            "(now - 1000) / 3 % 7 < 5 ? data.parent().exists() : !newData.child('a/b').isNumber()",
            "'abc'.contains('b') && 'a,b'.split(',').length == 2 && auth.token.admin == true",
            "data.child('c').val().toLowerCase().beginsWith('x') && newData.getPriority() == null",
            "query.orderByChild == 'score' && query.limitToFirst <= 50 && data.hasChild('a')",
        ],
        tokens: [
            "&&", "||", "==", "===", "!=", "!==", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "?", ":", "!", "(",
            ")",
            ".", "[", "]", ",", "'", "\"", "auth", "auth.uid", "data", "newData", "root", "now", "$x", "query",
            ".val()",
            ".child(", ".exists()", ".length", ".parent()", "9007199254740993", "1e308", "-1e308", "null", "\\",
        ]
    ) { input throws(FuzzViolation) in
        try Self.parseAndEvaluate(input)
    }

    /// Regular expressions in rules (`.matches(/…/)`): patterns, flags and subjects built to backtrack, which must
    /// still answer in linear time.
    static let ruleRegex = FuzzTarget(
        name: "rule-regex", summary: "rule regular expressions: .matches() patterns, flags and subjects",
        texts: [
            "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'.matches(/^(a|aa)+$/)",
            "newData.val().matches(/^[A-Za-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$/i) || data.child('c').val().matches(/y/)",
            "'2026-11-28'.matches(/^\\d{4}-\\d{2}-\\d{2}$/) && !'xxxxxxxxxxxxxxxxxxxxxxxx'.matches(/(x*)*y/)",
            "auth.uid.matches(/^u[0-9]+$/) && 'a.b'.replace('.', '').matches(/^(?:ab|a)$/)",
        ],
        tokens: [
            "(", ")", "*", "+", "?", "|", "{2,}", "{0,9999}", "[a-z]", "[^a]", "\\d", "\\w", "\\s", "\\b", ".", "^",
            "$",
            "/i", "aaaaaaaa", "(a|aa)+", "(.*)*", "(a*)*", "(?:", "\\", "/",
        ]
    ) { input throws(FuzzViolation) in
        try Self.parseAndEvaluate(input)
    }

    /// Parses `input` as a rule expression, checking a refusal points inside the text, and evaluates what parses;
    /// says whether it parsed.
    private static func parseAndEvaluate(_ input: [UInt8]) throws(FuzzViolation) -> Bool {
        let text = Self.text(input)
        let expression: RuleExpression
        do throws(RuleSyntaxError) {
            expression = try RuleParser.parse(text)
        } catch {
            try FuzzViolation.check(
                error.offset >= 0 && error.offset <= text.utf8.count, "\(error) points outside \(text.utf8.count) bytes"
            )
            return false
        }
        _ = RuleEvaluator(context: Self.ruleContext).grants(expression)
        return true
    }

    /// Paths the rules targets check, through wildcards and below them.
    private static let rulePaths = ["/", "/posts/p1", "/posts/p1/starCount", "/a/b", "/a/a/c"].compactMap {
        try? Path(validating: $0)
    }

    /// A user with a custom claim, at `/a` with data beside it, as rules see a write.
    private static let ruleContext: RuleContext = {
        let before =
            (try? WriteValue.parseWrite(
                Array(#"{"a":{"b":1,"c":"xyz"},"admins":{"u1":true},"posts":{"p1":{"uid":"u1","starCount":3}}}"#.utf8),
                depth: 0))?.node ?? .empty
        let after = (try? Path(validating: "/a/b")).map { before.setting(Node(.int(2)), at: $0) } ?? before
        return RuleContext(
            auth: .object(["uid": .string("u1"), "token": .object(["admin": .bool(true)])]), before: before,
            after: after, path: (try? Path(validating: "/a")) ?? .root, now: 1_700_000_000_000, wildcards: ["$x": "b"])
    }()

    /// A credential as `auth=`, `Authorization: Bearer` or the realtime `auth` action carries it: database
    /// secrets, HS256 tokens, unsigned emulator tokens and RS256 ID tokens.
    static let token = FuzzTarget(
        name: "token", summary: "credentials: secrets, HS256 and unsigned tokens, RS256 ID tokens, claims and times",
        texts: [
            TestTokens.hs256(
                #"{"v":0,"iat":1700000000,"d":{"uid":"ada","admin":false},"exp":1700003600}"#, secret: "s3"),
            TestTokens.hs256(#"{"admin":true,"iat":1.7e9,"nbf":1e9,"exp":1e308}"#, secret: "s3"),
            TestTokens.unsigned(#"{"sub":"u1","user_id":"u1","iat":1700000000,"firebase":{"sign_in_provider":"x"}}"#),
            TestKeys.opensslIDToken, "s3",
        ],
        tokens: [
            ".", "-", "_", "=", "eyJ", "e30", "eyJhbGciOiJub25lIn0", "AAAA", "////", "++++", "owner",
            TestTokens.hs256(#"{"admin":true,"iat":1.7e9,"nbf":1e308,"exp":-1}"#, secret: "s3", alg: "RS256"),
        ]
    ) { input throws(FuzzViolation) in
        let credential = Self.text(input)
        let authentication = try? Self.authenticator.authenticate(credential, now: 1_700_000_100)
        if let expires = authentication?.expires {
            try FuzzViolation.check(
                expires <= Authentication.latestExpiry && Int64(exactly: expires.rounded(.down)) != nil,
                "\(credential) expires at \(expires), past what timers and the client's integer hold")
        }
        if let token = try? JSONWebToken(credential) {
            _ = try? TokenVerifier(secret: "s3").verify(token, now: 1_700_000_100)
        }
        return authentication != nil
    }

    /// A node with a database secret, unsigned tokens allowed, and the test project's ID-token key.
    private static let authenticator = Authenticator(
        databaseSecrets: ["s3"], allowsUnsignedTokens: true,
        idTokens: (try? IDTokenVerifier.keys(from: TestKeys.certificatesJSON)).map {
            IDTokenVerifier(projectID: "hearth-test", keys: $0)
        })
}
