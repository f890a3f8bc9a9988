import HearthCore
import Testing

@testable import HearthRules

/// Rules whose root `.write` is `true` with nothing below it answer a write check without walking them, and answer
/// exactly what the walk answers.
@Suite struct OpenWriteRulesTests {
    /// The open rules, which take the short way.
    private static let open = #"{"rules": {".read": true, ".write": true}}"#
    /// The same grant with a rule below the root that no checked path reaches, which takes the walk.
    private static let walked = #"{"rules": {".read": true, ".write": true, "elsewhere": {".read": false}}}"#

    private static func paths(_ texts: [String]) throws -> [Path] {
        try texts.map { try Path(validating: $0) }
    }

    /// Only a root-level `true` with no `.validate` and no child rules takes the short way.
    @Test func onlyTheRootsUnconditionalGrantTakesTheShortWay() throws {
        #expect(try RulesDocument.parse(Self.open).grantsEveryWrite)
        #expect(try !RulesDocument.parse(Self.walked).grantsEveryWrite)
        #expect(try !RulesDocument.parse(#"{"rules": {".write": "auth != null"}}"#).grantsEveryWrite)
        #expect(try !RulesDocument.parse(#"{"rules": {".write": true, ".validate": false}}"#).grantsEveryWrite)
        #expect(try !RulesDocument.parse(#"{"rules": {".write": false}}"#).grantsEveryWrite)
    }

    /// The short way's verdict (allowed, nothing read, the root's `.write` deciding) equals the walk's for a star's
    /// paths, a single path and no path at all. (Not for the root itself: there the walk of `walked` reads the new
    /// data for the rule below it, which the open rules do not have.)
    @Test func theShortWayAnswersAsTheWalk() throws {
        let open = try RulesDocument.parse(Self.open)
        let walked = try RulesDocument.parse(Self.walked)
        let auth = RuleValue.object(["uid": .string("ada")])
        let writes: [[Path]] = [
            try Self.paths(["/posts/p1/stars/ada", "/posts/p1/starCount", "/user-posts/a1/p1/stars/ada"]),
            try Self.paths(["/a"]), [],
        ]
        for paths in writes {
            let short = open.checkWrite(at: paths, auth: auth, before: .empty, after: .empty, now: 0)
            let walk = walked.checkWrite(at: paths, auth: auth, before: .empty, after: .empty, now: 0)
            #expect(short == walk)
            #expect(short.isAllowed)
        }
    }

    /// A write of the whole database is granted by the root's rule, reading nothing.
    @Test func aWriteAtTheRootIsGrantedByTheRoot() throws {
        let verdict = try RulesDocument.parse(Self.open).checkWrite(
            at: [.root], auth: .null, before: .empty, after: .empty, now: 0)
        #expect(
            verdict == RuleVerdict(isAllowed: true, reads: RuleReads(), decider: RuleDecider(kind: .write, path: .root))
        )
    }

    /// A budget smaller than the paths to grant refuses the write as too costly, as the walk does (one step per
    /// path).
    @Test func aBudgetBelowThePathCountStillRefuses() throws {
        var open = try RulesDocument.parse(Self.open)
        var walked = try RulesDocument.parse(Self.walked)
        let paths = try Self.paths(["/a", "/b", "/c"])
        for limit in 0...3 {
            open.evaluationLimit = limit
            walked.evaluationLimit = limit
            let short = open.checkWrite(at: paths, auth: .null, before: .empty, after: .empty, now: 0)
            let walk = walked.checkWrite(at: paths, auth: .null, before: .empty, after: .empty, now: 0)
            #expect(short == walk)
            #expect(short.isAllowed == (limit >= 3))
        }
    }

    /// Asked before the paths are gathered, the short way gives `checkWrite`'s verdict for as many paths, within any
    /// budget, and nothing for rules that must be walked.
    @Test func theShortWayIsOfferedBeforeThePathsAreGathered() throws {
        var open = try RulesDocument.parse(Self.open)
        let paths = try Self.paths(["/a", "/b", "/c"])
        for limit in 0...3 {
            open.evaluationLimit = limit
            for count in 0...paths.count {
                let whole = open.checkWrite(
                    at: Array(paths.prefix(count)), auth: .null, before: .empty, after: .empty, now: 0)
                let offered = open.grantedWithoutWalk(writes: count)
                #expect(offered == (count <= limit ? whole : nil))
            }
        }
        #expect(try RulesDocument.parse(Self.walked).grantedWithoutWalk(writes: 1) == nil)
    }
}
