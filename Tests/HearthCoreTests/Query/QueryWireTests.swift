import HearthCore
import Testing

@Suite struct QueryWireTests {
    func wire(_ text: String) throws -> QuerySpec {
        try QuerySpec(wire: try JSONReader.parseValue(text))
    }

    @Test func javascriptShapesParse() throws {
        let spec = try self.wire(#"{"i":"a/b","sp":5,"sn":"k","sin":true,"ep":"z","ein":false,"l":3,"vf":"r"}"#)
        #expect(spec.index == .child(try Path(validating: "a/b")))
        #expect(spec.start == QueryBound(.int(5), name: Tree.key("k"), inclusive: true))
        // `ein: false` without `en` is (z, [MAX_NAME]) exclusive: no child equals a sentinel, so it is inclusive.
        #expect(spec.end == QueryBound(.string("z"), name: nil, inclusive: true))
        #expect(spec.limit == .last(3))
        let keyed = try self.wire(#"{"i":".key","sp":"a","sin":false}"#)
        #expect(keyed.start == QueryBound(.string("a"), inclusive: false))
        #expect(try self.wire(#"{"i":".value"}"#).index == .value)
        #expect(try self.wire(#"{"i":".priority"}"#) == QuerySpec.default)
        #expect(try self.wire("{}") == QuerySpec.default)
    }

    /// Android and iOS send no `sin`/`ein` (inclusive), integers as doubles, and `[MAX_KEY]` for startAfter.
    @Test func androidShapesMatchTheirJavascriptEquivalents() throws {
        let android = try self.wire(#"{"i":".value","sp":2.0,"sn":"[MAX_KEY]","ep":7.0,"l":10.0,"vf":"l"}"#)
        let javascript = try self.wire(
            #"{"i":".value","sp":2,"sn":"[MAX_NAME]","sin":false,"ep":7,"ein":true,"l":10,"vf":"l"}"#
        )
        #expect(android == javascript)
        #expect(android.wireObject == javascript.wireObject)
        #expect(android.start?.value == .int(2))
    }

    @Test func legacyLimitWithoutViewFromCountsFromTheStartOnlyWhenAStartIsSet() throws {
        #expect(try self.wire(#"{"l":4}"#).limit == .last(4))
        #expect(try self.wire(#"{"l":4,"sp":null}"#).limit == .first(4))
        #expect(try self.wire(#"{"l":4,"ep":1}"#).limit == .last(4))
    }

    @Test func nullBoundIsAPresentBound() throws {
        let spec = try self.wire(#"{"sp":null}"#)
        #expect(spec.start == QueryBound(nil))
        #expect(!spec.loadsAllData)
    }

    @Test func canonicalObjectIsStableAndRoundTrips() throws {
        let texts = [
            #"{}"#,
            #"{"i":".key","sp":"a","sin":false,"ep":"m","l":2,"vf":"r"}"#,
            #"{"i":"x/y","sp":true,"sn":"k","ep":"s","en":"[MIN_NAME]"}"#,
            #"{"sp":1.5,"sn":"[MIN_NAME]","sin":false,"l":1,"vf":"l"}"#,
            #"{"i":".value","ep":null,"en":"b","ein":false}"#,
        ]
        for text in texts {
            let spec = try self.wire(text)
            let again = try QuerySpec(wire: spec.wireObject)
            #expect(again == spec, "\(text)")
            #expect(again.wireObject == spec.wireObject, "\(text)")
        }
        let canonical = try self.wire(#"{"sp":1.0,"sn":"[MIN_NAME]","sin":false}"#).wireObject
        #expect(canonical == .object(["sp": .int(1), "sin": .bool(true)]))
        let keyed = try self.wire(#"{"i":".key","sp":"a","sn":"ignored","l":2,"vf":"l"}"#).wireObject
        let expected: JSONValue = .object([
            "i": .string(".key"), "sp": .string("a"), "sin": .bool(true), "l": .int(2), "vf": .string("l"),
        ])
        #expect(keyed == expected)
    }

    @Test(arguments: [
        #"[1]"#,
        #"{"i":5}"#,
        #"{"i":"a.b"}"#,
        #"{"i":"/"}"#,
        #"{"sp":{"a":1}}"#,
        #"{"sp":[1]}"#,
        #"{"sp":1,"sn":5}"#,
        #"{"sp":1,"sn":"a.b"}"#,
        #"{"sp":1,"sin":"yes"}"#,
        #"{"l":0}"#,
        #"{"l":-2}"#,
        #"{"l":2.5}"#,
        #"{"l":"3"}"#,
        #"{"l":3,"vf":"x"}"#,
        #"{"i":".key","sp":1}"#,
        #"{"sp":true}"#,
    ])
    func malformedQueriesAreRejected(_ text: String) throws {
        let json = try JSONReader.parseValue(text)
        #expect(throws: QueryError.self) { try QuerySpec(wire: json) }
    }
}
