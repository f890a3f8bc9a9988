import HearthCore
import Testing

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
}
