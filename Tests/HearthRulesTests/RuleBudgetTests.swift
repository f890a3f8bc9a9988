import HearthCore
import Testing

@testable import HearthRules

/// One request's rules evaluation is bounded: string building, `val()` copies, cascades over many children and
/// regular expression matches all spend from one budget, and a request that runs out is refused (as too costly),
/// never left running.
@Suite struct RuleBudgetTests {
    private static func node(_ json: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(json), depth: 0).node
    }

    private static func document(_ rules: String, limit: Int = RuleBudget.defaultLimit) throws -> RulesDocument {
        var document = try RulesDocument.parse(rules)
        document.evaluationLimit = limit
        return document
    }

    /// Nested `replace` calls that would build a string of 10^12 bytes are refused before building it.
    @Test func replacementsCannotBuildHugeStrings() throws {
        let document = try Self.document(
            #"{"rules": {"s": {".write": true, ".validate": "newData.val().replace('a', newData.val()).replace('a', newData.val()).replace('a', newData.val()).length > 0"}}}"#
        )
        let text = String(repeating: "a", count: 1_000)
        let after = try Self.node(#"{"s": "\#(text)"}"#)
        let path = try Path(validating: "/s")
        let verdict = document.checkWrite(at: [path], auth: .null, before: .empty, after: after, now: 0)
        #expect(!verdict.isAllowed)
        #expect(verdict.isTooCostly)
        let small = try Self.node(#"{"s": "ab"}"#)
        #expect(document.checkWrite(at: [path], auth: .null, before: .empty, after: small, now: 0).isAllowed)
    }

    /// A `.validate` on each of many children shares the request's budget: past it, the write is refused as too
    /// costly; within it, allowed.
    @Test func aCascadeOverManyChildrenIsBounded() throws {
        let rules = #"{"rules": {".write": true, "$k": {".validate": "newData.val().matches(/^(a|aa)+$/)"}}}"#
        var members: [String] = []
        for index in 0..<2_000 { members.append(#""k\#(index)": "aaaaaaaaaa""#) }
        let after = try Self.node("{" + members.joined(separator: ",") + "}")
        let tight = try Self.document(rules, limit: 20_000)
        let refused = tight.checkWrite(at: [.root], auth: .null, before: .empty, after: after, now: 0)
        #expect(!refused.isAllowed && refused.isTooCostly)
        let ordinary = try Self.document(rules)
        let allowed = ordinary.checkWrite(at: [.root], auth: .null, before: .empty, after: after, now: 0)
        #expect(allowed.isAllowed && !allowed.isTooCostly)
    }

    /// `root.val()` costs a step per node it copies, so a read rule that copies a big tree is refused as too
    /// costly rather than copying it over and over.
    @Test func valueCopiesAreCharged() throws {
        var members: [String] = []
        for index in 0..<1_000 { members.append(#""k\#(index)": \#(index)"#) }
        let data = try Self.node("{" + members.joined(separator: ",") + "}")
        let document = try Self.document(#"{"rules": {".read": "root.val() != null"}}"#, limit: 500)
        let verdict = document.checkRead(at: .root, auth: .null, data: data, now: 0)
        #expect(!verdict.isAllowed && verdict.isTooCostly)
        let roomy = try Self.document(#"{"rules": {".read": "root.val() != null"}}"#, limit: 5_000)
        #expect(roomy.allowsRead(at: .root, auth: .null, data: data, now: 0))
    }

    /// A refusal for another reason is not reported as too costly; once the budget is spent every later spend
    /// fails too, so no deeper rule can grant.
    @Test func tooCostlyOnlyWhenTheBudgetRanOut() throws {
        let document = try Self.document(#"{"rules": {".read": false, "a": {".read": true}}}"#, limit: 1)
        let verdict = document.checkRead(at: try Path(validating: "/a"), auth: .null, data: .empty, now: 0)
        #expect(!verdict.isAllowed && verdict.isTooCostly)
        let roomy = try Self.document(#"{"rules": {".read": false}}"#)
        let denied = roomy.checkRead(at: .root, auth: .null, data: .empty, now: 0)
        #expect(!denied.isAllowed && !denied.isTooCostly)
        var budget = RuleBudget(limit: 3)
        #expect(throws: RuleEvaluationError.self) { try budget.spend(4) }
        #expect(throws: RuleEvaluationError.self) { try budget.spend(0) }
        #expect(budget.isExhausted)
    }
}
