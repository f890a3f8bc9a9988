extension WriteValue.Reader {
    /// A value that is `true`, `false`, `null` or a number (a star's flags and counts), read from its bytes as the
    /// builder reads it at a value's root — a leaf, or an empty node for `null`, no placeholder, depth 0 — without
    /// lending the builder the reader's scratch space and running the generic reader for one token. Nil, with the
    /// cursor where it was, for anything else (a container, a string) and for a token the scanner refuses, which
    /// the builder then reads, and refuses, as before.
    /// - Complexity: O(n) in the length of the token.
    static func readLiteral(_ cursor: inout JSONCursor) -> WriteValue.Reading? {
        var scanner = cursor.scanner
        scanner.skipWhitespace()
        guard scanner.position < scanner.bytes.count else { return nil }
        switch scanner.bytes[scanner.position] {
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            return nil
        }
        let node: Node
        switch try? scanner.readValueToken() {
        case .null?: node = .empty
        case .bool(let flag)?: node = Node(.bool(flag))
        case .int(let number)?: node = Node(.int(number))
        case .double(let number)? where number.isFinite: node = Node(.double(number))
        default: return nil
        }
        cursor.scanner.position = scanner.position
        return WriteValue.Reading(value: WriteValue(node: node), depth: 0)
    }
}
