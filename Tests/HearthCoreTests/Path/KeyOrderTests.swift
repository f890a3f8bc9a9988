import HearthCore
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
}
