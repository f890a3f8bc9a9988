import HearthCore
import Testing

@Suite struct QueryRESTTests {
    func rest(_ parameters: [String: String]) throws(QueryError) -> QuerySpec? {
        try QuerySpec.rest(parameters: parameters, parseJSON: { try JSONReader.parseValue($0) })
    }

    func error(_ parameters: [String: String]) -> QueryError? {
        do {
            _ = try self.rest(parameters)
            return nil
        } catch {
            return error
        }
    }

    @Test func noQueryParametersGiveNil() throws {
        #expect(try self.rest([:]) == nil)
        #expect(try self.rest(["print": "pretty", "shallow": "true", "ns": "demo"]) == nil)
    }

    /// The request firebase-admin-python sends (§8), parameters already percent-decoded.
    @Test func pythonAdminQueryParses() throws {
        let spec = try #require(
            try self.rest(["endAt": #""zz""#, "limitToFirst": "3", "orderBy": #""score""#, "startAt": "10"])
        )
        #expect(spec.index == .child(try Path(validating: "score")))
        #expect(spec.start == QueryBound(.int(10)))
        #expect(spec.end == QueryBound(.string("zz")))
        #expect(spec.limit == .first(3))
    }

    @Test func orderByAcceptsTheSpecialIndexesAndNestedPaths() throws {
        #expect(try self.rest(["orderBy": #""$key""#])?.index == .key)
        #expect(try self.rest(["orderBy": #""$value""#])?.index == .value)
        #expect(try self.rest(["orderBy": #""$priority""#])?.index == .priority)
        #expect(try self.rest(["orderBy": #""a/b""#])?.index == .child(try Path(validating: "a/b")))
    }

    @Test func boundsMayCarryAKeyName() throws {
        let start = try self.rest(["orderBy": #""$value""#, "startAt": #""x,y","k""#])?.start
        #expect(start == QueryBound(.string("x,y"), name: Tree.key("k")))
        let named = try self.rest(["orderBy": #""h""#, "endAt": #"5,"a,b""#])?.end
        #expect(named == QueryBound(.int(5), name: Tree.key("a,b")))
        let equal = try #require(try self.rest(["orderBy": #""$value""#, "equalTo": #"true,"k""#]))
        #expect(equal.start == QueryBound(.bool(true), name: Tree.key("k")))
        #expect(equal.end == equal.start)
    }

    @Test func startAfterAndEndBeforeUseSentinelNamesOnValueIndexes() throws {
        let after = try #require(try self.rest(["orderBy": #""$value""#, "startAfter": "2", "endBefore": "9"]))
        #expect(after.start == QueryBound(.int(2), name: Key.maxName, inclusive: true))
        #expect(after.end == QueryBound(.int(9), name: Key.minName, inclusive: true))
        let named = try #require(try self.rest(["orderBy": #""$value""#, "startAfter": #"2,"k""#]))
        #expect(named.start == QueryBound(.int(2), name: Tree.key("k"), inclusive: false))
        let node = Tree.object([("a", Tree.leaf(.int(2))), ("b", Tree.leaf(.int(3))), ("k", Tree.leaf(.int(2)))])
        #expect(Tree.keys(after.evaluate(node)) == ["b"])
    }

    @Test func startAfterAndEndBeforeAreExclusiveKeysUnderKeyIndex() throws {
        let spec = try #require(try self.rest(["orderBy": #""$key""#, "startAfter": #""a""#, "endBefore": #""c""#]))
        #expect(spec.start == QueryBound(.string("a"), inclusive: false))
        #expect(spec.end == QueryBound(.string("c"), inclusive: false))
        let node = Tree.object(["a", "b", "c"].map { ($0, Tree.leaf(.int(0))) })
        #expect(Tree.keys(spec.evaluate(node)) == ["b"])
    }

    /// firebase-tools lists children with `shallow=true&limitToFirst=N&startAfter=<raw key>` and no orderBy.
    @Test func shallowListingOfFirebaseToolsIsAKeyQueryWithRawKeys() throws {
        let spec = try #require(try self.rest(["shallow": "true", "limitToFirst": "2", "startAfter": "10"]))
        #expect(spec.index == .key)
        #expect(spec.start == QueryBound(.string("10"), inclusive: false))
        #expect(spec.limit == .first(2))
        let node = Tree.object(["2", "10", "11", "a"].map { ($0, Tree.leaf(.int(0))) })
        #expect(Tree.keys(spec.orderedChildren(node)) == ["11", "a"])
    }

    @Test func filtersWithoutOrderByAreRejectedWithFirebasesMessage() {
        let error = self.error(["limitToFirst": "1"])
        #expect(error?.code == .orderByRequired)
        #expect(error?.message == "orderBy must be defined when other query parameters are defined")
    }

    @Test(arguments: [
        (["orderBy": "$key"], QueryError.Code.invalidOrderBy),
        (["orderBy": "5"], .invalidOrderBy),
        (["orderBy": #""a.b""#], .invalidOrderBy),
        (["orderBy": #""""#], .invalidOrderBy),
        (["orderBy": #""$key""#, "limitToFirst": "1", "limitToLast": "1"], .conflictingParameters),
        (["orderBy": #""$key""#, "limitToFirst": "0"], .invalidLimit),
        (["orderBy": #""$key""#, "limitToLast": "-1"], .invalidLimit),
        (["orderBy": #""$key""#, "limitToFirst": "1.5"], .invalidLimit),
        (["orderBy": #""$key""#, "limitToFirst": "ten"], .invalidLimit),
        (["orderBy": #""$value""#, "equalTo": "1", "startAt": "1"], .conflictingParameters),
        (["orderBy": #""$value""#, "equalTo": "1", "endBefore": "1"], .conflictingParameters),
        (["orderBy": #""$value""#, "startAt": "1", "startAfter": "1"], .conflictingParameters),
        (["orderBy": #""$value""#, "endAt": "1", "endBefore": "1"], .conflictingParameters),
        (["orderBy": #""$key""#, "startAt": "1"], .invalidBound),
        (["orderBy": #""$key""#, "equalTo": "null"], .invalidBound),
        (["orderBy": #""$priority""#, "startAt": "true"], .invalidBound),
        (["orderBy": #""$priority""#, "startAt": #"{"a":1}"#], .invalidBound),
        (["orderBy": #""$value""#, "startAt": #"{"a":1}"#], .invalidBound),
        (["orderBy": #""$value""#, "endAt": "[1]"], .invalidBound),
        (["orderBy": #""$value""#, "startAt": "abc"], .invalidBound),
        (["orderBy": #""$value""#, "startAt": #"1,2"#], .invalidBound),
        (["orderBy": #""$value""#, "startAt": #"1,"a.b""#], .invalidBound),
    ])
    func invalidParametersAreRejected(_ parameters: [String: String], _ code: QueryError.Code) {
        let error = self.error(parameters)
        #expect(error?.code == code, "\(parameters): \(error?.message ?? "accepted")")
        #expect((error?.message.count ?? 0) > 20)
    }

    @Test func messagesSayWhatToChange() {
        #expect(self.error(["orderBy": "height"])?.message.contains(#"orderBy="height""#) == true)
        #expect(self.error(["orderBy": #""$key""#, "startAt": "1"])?.message.contains("quote it") == true)
        #expect(self.error(["orderBy": #""$key""#, "limitToFirst": "0"])?.message.contains("positive integer") == true)
    }
}
