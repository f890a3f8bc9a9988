import HearthCore
import HearthTestKit
import Testing

@Suite struct KeyOrderTests {
    @Test func keysSortTheFirebaseWay() throws {
        let expected = [
            "-5", "0", "1", "7", "07", "007", "9", "10", "2147483647", "-", "1a", "2147483648", "A", "_", "a",
        ]
        let keys = try expected.reversed().map { try Key(validating: $0) }
        #expect(keys.sorted().map(\.string) == expected)
    }

    @Test(arguments: ["", "a.b", "a$", "a#", "a[", "a]", "a/b", "a\u{1}", "a\u{7F}"])
    func invalidKeysAreRejected(_ key: String) {
        #expect(throws: PathError.self) { try Key(validating: key) }
    }

    @Test func keysLongerThan768BytesAreRejected() {
        #expect(throws: PathError.self) { try Key(validating: String(repeating: "x", count: 769)) }
        #expect((try? Key(validating: String(repeating: "x", count: 768))) != nil)
    }
}

@Suite struct KeyEqualityTests {
    @Test func canonicallyEquivalentKeysStayDistinct() throws {
        let composed = try Key(validating: "\u{E9}")
        let decomposed = try Key(validating: "e\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect((composed < decomposed) != (decomposed < composed))
    }

    /// Equality is exactly byte equality of the UTF-8, for every length around the eight-byte steps and a
    /// difference at every position (the comparison reads eight bytes at a time).
    @Test func equalityIsByteEqualityAtEveryLengthAndPosition() {
        var random = SeededRandom(seed: 7)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &random) }
            let key = Key(unchecked: String(decoding: bytes, as: UTF8.self))
            #expect(key == Key(unchecked: String(decoding: bytes, as: UTF8.self)))
            #expect(key != Key(unchecked: String(decoding: bytes + [0x61], as: UTF8.self)))
            for position in 0..<length {
                var changed = bytes
                changed[position] = changed[position] == 0x61 ? 0x62 : 0x61
                #expect(key != Key(unchecked: String(decoding: changed, as: UTF8.self)))
            }
        }
    }
}
