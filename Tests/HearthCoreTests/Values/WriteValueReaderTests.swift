import Testing

@testable import HearthCore

/// One `WriteValue.Reader` reading many values in a row, keeping its scratch space from one to the next.
@Suite struct WriteValueReaderTests {
    /// What reading `text` gave: the value's node, placeholders, pending priorities and depth, or the error's text.
    private struct Outcome: Equatable {
        var node: Node?
        var placeholders: [ServerValuePlaceholder] = []
        var pendingPriorities: [Path: Priority] = [:]
        var depth = 0
        var error: String?
    }

    private static func outcome(_ text: String, _ read: (inout JSONCursor) throws -> WriteValue.Reading) -> Outcome {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = JSONCursor(UnsafeBufferPointer(buffer))
            do {
                let reading = try read(&cursor)
                return Outcome(
                    node: reading.value.node, placeholders: reading.value.placeholders,
                    pendingPriorities: reading.value.pendingPriorities, depth: reading.depth)
            } catch {
                return Outcome(error: "\(error)")
            }
        }
    }

    /// Every value, and every error, is what reading that value alone gives, whatever the reader read before it:
    /// nested objects, server values, priorities, arrays, scalars, and values after ones that failed part-way in.
    @Test func readingInARowGivesWhatReadingAloneGives() {
        let values = [
            #"{".sv":{"increment":1}}"#, "true", #"{"a":{"b":{"c":[1,{"d":2}]}},".priority":3}"#,
            #"{"a":{"b":{".sv":"bogus"}}}"#, #"{".sv":{"increment":-2.5}}"#, #"{"x":[[[[1]]]]}"#,
            #"{"a":{"b":{"c":1,"#, #"{"k":{".priority":{".sv":"timestamp"},"v":"s"}}"#, "null", #"[null,{"a":1}]"#,
            #"{"bad key.":1}"#, #"{"a":{".value":5,".priority":"p"}}"#,
        ]
        var reader = WriteValue.Reader()
        for text in values {
            let inARow = Self.outcome(text) { try reader.read(&$0, maximumNesting: 4) }
            let alone = Self.outcome(text) { try WriteValue.read(&$0, maximumNesting: 4) }
            #expect(inARow == alone, "\(text)")
        }
    }

    /// A server value at a value's root shares its list with the last ones of the same server value
    /// (`WriteValueBuilder.rootPlaceholders`): values that repeat, alternate, pass the kept number, or add a priority's
    /// server value to a shared list (which must copy it, not change it) each read as they read alone, and so does
    /// every earlier reading, kept, after all of them.
    @Test func serverValuesAtTheRootReadAsAlone() {
        let values = [
            #"{".sv":{"increment":1}}"#, #"{".sv":{"increment":-1}}"#, #"{".sv":{"increment":1}}"#,
            #"{".sv":"timestamp"}"#, #"{".sv":{"increment":1}}"#, #"{".sv":{"increment":2}}"#,
            #"{".sv":{"increment":1},".priority":{".sv":"timestamp"}}"#, #"{".sv":{"increment":1}}"#,
            #"{".sv":{"increment":1.0}}"#, #"{".sv":"timestamp",".priority":5}"#, #"{".sv":{"increment":1}}"#,
            #"{"a":{".sv":{"increment":1}}}"#, #"{".sv":{"increment":1}}"#,
        ]
        var reader = WriteValue.Reader()
        var kept: [(text: String, outcome: Outcome)] = []
        for text in values {
            let inARow = Self.outcome(text) { try reader.read(&$0, maximumNesting: 4) }
            let alone = Self.outcome(text) { try WriteValue.read(&$0, maximumNesting: 4) }
            #expect(inARow == alone, "\(text)")
            kept.append((text, inARow))
        }
        for (text, outcome) in kept {
            #expect(outcome == Self.outcome(text) { try WriteValue.read(&$0, maximumNesting: 4) }, "\(text)")
        }
    }

    /// A server value alone (`WriteValue.Reader.readServerValueAlone`) reads as the builder reads it: the same node,
    /// placeholders, depth, error and place after it, for the shapes it takes from the bytes, the same spaced
    /// otherwise, numbers of every kind the scanner reads or refuses, broken and cut-off text, what follows the
    /// value, and too little nesting left.
    @Test func aServerValueAloneReadsAsTheBuilderReadsIt() {
        let numbers = [
            "1", "-1", "0", "-0", "42", "1.0", "-2.5", "1e3", "1E-2", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "1e400", "01", "1.", "-", "+1", ".5", "1x", "true", "\"1\"", "null", "",
        ]
        var values = numbers.map { #"{".sv":{"increment":"# + $0 + "}}" }
        values += [
            #"{".sv":"timestamp"}"#, #"{".sv":"timestampx"}"#, #"{".sv":"Timestamp"}"#, #"{".sv":"timestamp""#,
            #" {".sv":"timestamp"} "#, #"{ ".sv":"timestamp"}"#, #"{".sv": {"increment":1}}"#,
            #"{".sv":{"increment":1 }}"#, #"{".sv":{"increment":1},"a":1}"#, #"{".sv":{"increment":1,"b":2}}"#,
            #"{".sv":{"increment":1}"#, #"{".sv":{"increment":"#, #"{".sv":"#, #"{".sv""#, "{",
            #"{".sv":{"increment":1}}}"#, #"{".sv":{"increment":1}},"#, #"{".sv":{"incr":1}}"#,
        ]
        Self.expectReaderReadsAsBuilder(values, nestings: [0, 1, 2, 3])
    }

    /// A value that is a literal or a number (`WriteValue.Reader.readLiteral`) reads as the builder reads it: the
    /// same node, depth, error and cursor position, for tokens of every form, broken ones and whatever follows them.
    @Test func aLiteralReadsAsTheBuilderReadsIt() {
        let tokens = [
            "true", "false", "null", "1", "-1", "0", "-0", "42", "1.0", "-2.5", "1e3", "1E-2", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "1e400", "-1e400", "1e-400", "01", "1.", "-", "+1", ".5",
            "tru", "nul", "fals", "truee", "True", "NULL", "nulll", "t", "n", "f", "0x1", "1e", "1e+", "-.5", "2.5e-3",
        ]
        var values = tokens
        values += tokens.map { " \t\n" + $0 + " " }
        values += tokens.map { $0 + "," }
        values += tokens.map { $0 + "}" }
        values += tokens.map { $0 + "x" }
        values += ["", " ", "\"s\"", "[1]", "{}", "{\"a\":true}"]
        Self.expectReaderReadsAsBuilder(values, nestings: [0, 1, 2])
    }

    /// Each of `values` read by one kept `WriteValue.Reader` and by the general builder, at each of `nestings`: the
    /// same outcome (node, depth or error) and the same cursor position afterwards.
    private static func expectReaderReadsAsBuilder(_ values: [String], nestings: [Int]) {
        for nesting in nestings {
            var reader = WriteValue.Reader()
            for text in values {
                let fast = Self.read(text) { try reader.read(&$0, maximumNesting: nesting) }
                let built = Self.read(text) { cursor in
                    var builder = WriteValueBuilder(baseDepth: 0)
                    let fragment = try cursor.read(into: &builder, maximumNesting: nesting)
                    return WriteValue.Reading(value: WriteValue(fragment), depth: builder.deepest)
                }
                #expect(fast.outcome == built.outcome, "\(text.debugDescription) with nesting \(nesting)")
                #expect(fast.position == built.position, "\(text.debugDescription) with nesting \(nesting)")
            }
        }
    }

    /// `outcome(_:_:)` and where the cursor stood after the read.
    private static func read(_ text: String, _ read: (inout JSONCursor) throws -> WriteValue.Reading) -> (
        outcome: Outcome, position: Int?
    ) {
        var position: Int?
        let outcome = Self.outcome(text) { cursor in
            let reading = try read(&cursor)
            position = cursor.position
            return reading
        }
        return (outcome, position)
    }
}
