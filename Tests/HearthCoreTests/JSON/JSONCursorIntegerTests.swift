import HearthCore
import HearthTestKit
import Testing

/// `JSONCursor.readInteger()`, a protocol's ids and counters read without a `JSONValue`, against
/// `readValue(maximumNesting:)`'s `intValue`: the same number or none, the same errors, the cursor at the same place.
@Suite struct JSONCursorIntegerTests {
    /// What reading the value at the start of `text` gave: the integer or nil, or the error's message, and where the
    /// cursor stopped.
    private struct Read: Equatable {
        var integer: Int64?
        var error: String?
        var position: Int
    }

    private static func read(_ text: String, _ body: (inout JSONCursor) throws(JSONError) -> Int64?) -> Read {
        var text = text
        return text.withUTF8 { bytes in
            var cursor = JSONCursor(bytes)
            do throws(JSONError) {
                return Read(integer: try body(&cursor), position: cursor.position)
            } catch {
                return Read(error: error.message, position: cursor.position)
            }
        }
    }

    /// Numbers of every form (signs, zeros, fractions, exponents, Int64's edges and past them) and broken ones, each
    /// alone and followed by more of a document.
    @Test func integersReadAsTheirJSONValues() {
        let numbers = [
            "0", "-0", "1", "-1", "42", "007", "-", "1.", "1.0", "1.5", "-2.50", "1e3", "1E+3", "1e-3", "2.5e1",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "1e19", "123456789012345678901234567890", "1e400", "0.1e1", "12a", " 5", "\t-7",
        ]
        for number in numbers {
            for tail in ["", ",", "}", " ,\"x\":1}"] {
                let text = number + tail
                let general = Self.read(text) { cursor throws(JSONError) in
                    try cursor.readValue(maximumNesting: 100).intValue
                }
                #expect(Self.read(text) { cursor throws(JSONError) in try cursor.readInteger() } == general, "\(text)")
            }
        }
    }

    /// Any other value is no integer, and nothing of it is read.
    @Test func otherValuesAreNotRead() {
        for text in [#""12""#, "true", "null", "[1]", #"{"a":1}"#, "", "x", " \"1\""] {
            let read = Self.read(text) { cursor throws(JSONError) in try cursor.readInteger() }
            #expect(read.integer == nil && read.error == nil, "\(text)")
        }
    }
}
