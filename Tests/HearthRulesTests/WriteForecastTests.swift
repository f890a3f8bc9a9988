import HearthCore
import Testing

@testable import HearthRules

/// Deciding a write from who asks and where, before its data arrives: only `.write` rules that read no data and
/// match no regular expression decide; anything else is left to the full check.
@Suite struct WriteForecastTests {
    private static let rules = """
        {
          "rules": {
            "closed": { ".write": false },
            "signedIn": { ".write": "auth != null" },
            "users": { "$uid": { ".write": "auth.uid === $uid" } },
            "claims": { "$name": { ".write": "auth != null && !data.exists()" } },
            "mailbox": { "$id": { "body": { ".write": "auth != null" } } },
            "patterns": { ".write": "auth.uid.matches(/^a/)" }
          }
        }
        """

    private static func forecast(_ path: String, below: Bool = false, auth: RuleValue = .null) throws -> WriteForecast {
        let document = try RulesDocument.parse(Self.rules)
        let keys = path.split(separator: "/").map { Key(unchecked: String($0)) }
        return document.forecastWrite(at: Path(keys: keys), below: below, auth: auth, now: 0)
    }

    private static let ada: RuleValue = .object(["uid": .string("ada")])

    /// Rules that read only `auth`, `$wildcards` and literals decide the write from its head.
    @Test func rulesThatReadNoDataDecideFromTheHead() throws {
        #expect(try Self.forecast("closed/x") == .denied)
        #expect(try Self.forecast("signedIn/x") == .denied)
        #expect(try Self.forecast("signedIn/x", auth: Self.ada) == .granted)
        #expect(try Self.forecast("users/ada", auth: Self.ada) == .granted)
        #expect(try Self.forecast("users/bob", auth: Self.ada) == .denied)
        #expect(try Self.forecast("nowhere") == .denied, "no rule grants: closed by default")
    }

    /// A rule that reads the data, or a regular expression, leaves the answer to the full check.
    @Test func rulesThatReadDataOrMatchPatternsAreLeftToTheFullCheck() throws {
        #expect(try Self.forecast("claims/x", auth: Self.ada) == .dependsOnData)
        #expect(try Self.forecast("patterns", auth: Self.ada) == .dependsOnData)
    }

    /// A PATCH or POST writes at keys that come in the body: deeper `.write` rules may still grant them.
    @Test func writesBelowThePathAreDeniedOnlyWhenNoDeeperRuleCouldGrant() throws {
        #expect(try Self.forecast("mailbox") == .denied)
        #expect(try Self.forecast("mailbox", below: true) == .dependsOnData)
        #expect(try Self.forecast("closed", below: true) == .denied)
    }
}
