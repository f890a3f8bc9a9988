import HearthCore
import HearthTestKit
import Testing

/// `JSONCursor`'s byte readers (`enterObject(appendingKeyTo:)`, `nextKey(appendingTo:)`, `readString(appendingTo:)`)
/// and letter readers (`enterObjectByLetter()`, `nextKeyLetter()`, `readLetter()`) against its `String` readers:
/// over random and mutated documents, the same keys and strings as bytes (or letters), the same errors, and the
/// cursor left at the same place.
@Suite struct JSONCursorBytesTests {
    /// What walking a document's outer object gave: each key and, for a string member, its value, as bytes; then
    /// the error that stopped the walk, if any, and where the cursor was left.
    private struct Walk: Equatable {
        var keys: [[UInt8]] = []
        var strings: [[UInt8]?] = []
        var error: JSONError?
        var position = 0
    }

    /// The walk with the `String` readers (`readValue` for a member's value).
    private static func walkWithStrings(_ bytes: UnsafeBufferPointer<UInt8>) -> Walk {
        var walk = Walk()
        var cursor = JSONCursor(bytes)
        do {
            var next = try cursor.enterObject()
            while let key = next {
                walk.keys.append(Array(key.utf8))
                if cursor.peek() == UInt8(ascii: "\"") {
                    walk.strings.append(try cursor.readValue(maximumNesting: 8).stringValue.map { Array($0.utf8) })
                } else {
                    try cursor.skipValue(maximumNesting: 8)
                    walk.strings.append(nil)
                }
                next = try cursor.nextKey()
            }
        } catch {
            walk.error = error
        }
        walk.position = cursor.position
        return walk
    }

    /// The walk with the byte readers, every key and string appended to one buffer behind some earlier bytes.
    private static func walkWithBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Walk {
        var walk = Walk()
        var cursor = JSONCursor(bytes)
        var buffer: [UInt8] = Array("earlier".utf8)
        do {
            var next = try cursor.enterObject(appendingKeyTo: &buffer)
            while let key = next {
                walk.keys.append(Array(buffer[key]))
                if let string = try cursor.readString(appendingTo: &buffer) {
                    walk.strings.append(Array(buffer[string]))
                } else {
                    try cursor.skipValue(maximumNesting: 8)
                    walk.strings.append(nil)
                }
                next = try cursor.nextKey(appendingTo: &buffer)
            }
        } catch {
            walk.error = error
        }
        #expect(buffer.starts(with: "earlier".utf8))
        walk.position = cursor.position
        return walk
    }

    /// The walk with the letter readers (`enterObjectByLetter()`, `nextKeyLetter()`, `readLetter()`), each key and
    /// string kept as its one byte, or as 0 when it is not one byte long.
    private static func walkWithLetters(_ bytes: UnsafeBufferPointer<UInt8>) -> Walk {
        var walk = Walk()
        var cursor = JSONCursor(bytes)
        do {
            var next = try cursor.enterObjectByLetter()
            while let key = next {
                walk.keys.append([key])
                if let letter = try cursor.readLetter() {
                    walk.strings.append([letter])
                } else {
                    try cursor.skipValue(maximumNesting: 8)
                    walk.strings.append(nil)
                }
                next = try cursor.nextKeyLetter()
            }
        } catch {
            walk.error = error
        }
        walk.position = cursor.position
        return walk
    }

    /// `walk` with each key and string as the letter readers tell it.
    private static func letters(_ walk: Walk) -> Walk {
        var letters = walk
        letters.keys = walk.keys.map { [$0.count == 1 ? $0[0] : 0] }
        letters.strings = walk.strings.map { $0.map { [$0.count == 1 ? $0[0] : 0] } }
        return letters
    }

    /// Random objects with awkward keys and strings (escapes, surrogate pairs, controls), and the same objects with
    /// bytes replaced, inserted, removed or cut off, walk alike both ways.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func byteReadersWalkAsStringReadersDo(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let interesting: [UInt8] =
            Array("{}[]\",:\\u0123456789abcdefABCDEF \n".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
        for round in 0..<3000 {
            var members: [JSONKey: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &random) {
                members[JSONKey(JSONGenerators.string(&random))] =
                    Bool.random(using: &random)
                    ? .string(JSONGenerators.string(&random)) : JSONGenerators.value(&random, depth: 2)
            }
            var bytes = JSONValue.object(members).jsonBytes(pretty: round % 3 == 0)
            if round % 2 == 1 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                    let byte = interesting[Int.random(in: 0..<interesting.count, using: &random)]
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0 where !bytes.isEmpty: bytes[position] = byte
                    case 1: bytes.insert(byte, at: position)
                    case 2 where !bytes.isEmpty: bytes.remove(at: position)
                    default: bytes.removeLast(bytes.count - position)
                    }
                }
            }
            bytes.withUnsafeBufferPointer { buffer in
                let strings = Self.walkWithStrings(buffer)
                let direct = Self.walkWithBytes(buffer)
                #expect(strings == direct, "seed \(seed) round \(round): \(String(decoding: bytes, as: UTF8.self))")
                #expect(
                    Self.letters(strings) == Self.walkWithLetters(buffer),
                    "seed \(seed) round \(round): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// Envelopes as clients write them — one-letter keys and values, no whitespace (`{"t":"d","d":{…}}`), which the
    /// letter readers read at once — and the same with whitespace, escapes, quotes, backslashes, controls, DEL and
    /// bytes past ASCII as the letter, keys of other lengths, and bytes cut off: the letter readers walk them as the
    /// string readers do.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func oneLetterEnvelopesWalkAsStringReadersDo(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let letters = [
            "t", "d", "r", "a", "b", "p", "o", "h", "\\\"", "\\\\", "\\u0074", "\u{7F}", "é", "\u{1}", "", "tt", " ",
            "\"",
        ]
        let values = [
            "\"d\"", "\"m\"", "41", "{}", "null", "\"\"", "\"\\u0064\"", "\"é\"", "\"\\\"\"", "[1]", "\"dd\"",
        ]
        for round in 0..<3000 {
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let key = letters.randomElement(using: &random) ?? ""
                let value = values.randomElement(using: &random) ?? ""
                let colon = Int.random(in: 0..<6, using: &random) == 0 ? " : " : ":"
                members.append("\"" + key + "\"" + colon + value)
            }
            let comma = Int.random(in: 0..<6, using: &random) == 0 ? " , " : ","
            var text =
                (Int.random(in: 0..<6, using: &random) == 0 ? " { " : "{") + members.joined(separator: comma) + "}"
            if Int.random(in: 0..<5, using: &random) == 0 {
                text.removeLast(Int.random(in: 0...min(3, text.count), using: &random))
            }
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                #expect(
                    Self.letters(Self.walkWithStrings(buffer)) == Self.walkWithLetters(buffer),
                    "seed \(seed) round \(round): \(text.debugDescription)")
            }
        }
    }
}
