import HearthTestKit
import Testing

@testable import HearthNet

@Suite struct UTF8ValidatorTests {
    private func validates(_ bytes: [UInt8]) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isAtBoundary
    }

    @Test func acceptsEveryScalarAtTheEncodingEdges() {
        let scalars: [UInt32] = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF]
        for value in scalars {
            let text = String(Character(Unicode.Scalar(value) ?? "?"))
            #expect(self.validates(Array(text.utf8)), "U+\(String(value, radix: 16))")
        }
    }

    @Test func rejectsOverlongsSurrogatesAndOutOfRange() {
        let invalid: [[UInt8]] = [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xBF],
        ]
        for bytes in invalid {
            #expect(!self.validates(bytes), "\(bytes)")
        }
    }

    /// Mostly-ASCII runs of up to 40 bytes exercise the eight-bytes-at-a-time path as well as the byte path.
    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        let seed: UInt64 = 77
        var random = SeededRandom(seed: seed)
        let special: [UInt8] = [0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...40, using: &random)
            let bytes = (0..<length).map { _ in
                Int.random(in: 0..<4, using: &random) == 0
                    ? special[Int.random(in: 0..<special.count, using: &random)]
                    : UInt8.random(in: 0x20...0x7E, using: &random)
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(self.validates(bytes) == expected, "seed \(seed) bytes \(bytes)")
            var bytewise = UTF8Validator()
            let isValidBytewise = bytes.allSatisfy { bytewise.consume($0) } && bytewise.isAtBoundary
            #expect(isValidBytewise == expected, "seed \(seed) bytes \(bytes)")
        }
    }
}
