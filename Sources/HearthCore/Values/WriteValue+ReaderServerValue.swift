extension WriteValue.Reader {
    /// A server value alone as a value, `{".sv":{"increment":<number>}}` or `{".sv":"timestamp"}`, written with no
    /// whitespace inside as clients write it (a star's counts, a message's time), read from its bytes: the same
    /// reading as the builder's (an empty node and the one placeholder at its root, the list shared as
    /// `WriteValueBuilder.rootPlaceholders` shares it, depth 0), without its two containers, member keys and their
    /// `String`s, which cost more than the rest of a star's update. Nil, with the cursor where it was, for anything
    /// else — the same value spaced otherwise, a number the scanner refuses, too little nesting left — which the
    /// builder then reads, and refuses, as before.
    /// - Complexity: O(n) in the length of the number.
    mutating func readServerValueAlone(_ cursor: inout JSONCursor, maximumNesting: Int) -> WriteValue.Reading? {
        var scanner = cursor.scanner
        scanner.skipWhitespace()
        guard scanner.consume(Self.serverValueOpening) else { return nil }
        let serverValue: ServerValue
        if scanner.consume(Self.timestampClosing) {
            guard maximumNesting >= 1 else { return nil }
            serverValue = .timestamp
        } else {
            // The operand object is the second level of nesting.
            guard maximumNesting >= 2, scanner.consume(Self.incrementOpening),
                scanner.position < scanner.bytes.count
            else { return nil }
            switch scanner.bytes[scanner.position] {
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
            default: return nil
            }
            switch try? scanner.readNumber() {
            case .int(let number)?: serverValue = .increment(.int(number))
            case .double(let number)? where number.isFinite: serverValue = .increment(.double(number))
            default: return nil
            }
            guard scanner.consume(Self.incrementClosing) else { return nil }
        }
        cursor.scanner.position = scanner.position
        let placeholders = WriteValueBuilder.rootPlaceholders(serverValue, keptIn: &self.recentRootPlaceholders)
        return WriteValue.Reading(value: WriteValue(node: .empty, placeholders: placeholders), depth: 0)
    }

    private static let serverValueOpening: StaticString = #"{".sv":"#
    private static let timestampClosing: StaticString = #""timestamp"}"#
    private static let incrementOpening: StaticString = #"{"increment":"#
    private static let incrementClosing: StaticString = "}}"
}
