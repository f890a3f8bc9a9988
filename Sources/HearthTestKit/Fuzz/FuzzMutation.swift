/// One edit the fuzzer makes to an input; chosen uniformly, so every kind of damage gets its share.
enum FuzzMutation: CaseIterable {
    case flipBit
    case setByte
    case insertByte
    case deleteRange
    case duplicateRange
    case truncate
    case insertToken
    case overwriteToken
    case insertNumberText
    case replaceNumberText
    case overwriteNumberBinary
    case splice

    static func random(using random: inout SeededRandom) -> FuzzMutation {
        Self.allCases[Int(random.next() % UInt64(Self.allCases.count))]
    }

    /// Applies this edit to `bytes`, drawing tokens and splice partners from `fuzzer`.
    func apply(to bytes: inout [UInt8], fuzzer: Fuzzer, using random: inout SeededRandom) {
        let position = Int.random(in: 0...bytes.count, using: &random)
        let inside = bytes.isEmpty ? nil : min(position, bytes.count - 1)
        switch self {
        case .flipBit:
            guard let inside else { return bytes.append(UInt8.random(in: 0...255, using: &random)) }
            bytes[inside] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case .setByte:
            guard let inside else { return }
            bytes[inside] = FuzzInteresting.bytes[Int.random(in: 0..<FuzzInteresting.bytes.count, using: &random)]
        case .insertByte:
            let count = Int.random(in: 1...4, using: &random)
            let byte = UInt8.random(in: 0...255, using: &random)
            bytes.insert(contentsOf: repeatElement(byte, count: count), at: position)
        case .deleteRange:
            let count = min(Int.random(in: 1...16, using: &random), bytes.count - position)
            bytes.removeSubrange(position..<(position + count))
        case .duplicateRange:
            let count = min(Int.random(in: 1...64, using: &random), bytes.count - position)
            let copies = Int.random(in: 1...(count < 8 ? 64 : 4), using: &random)
            let piece = Array(bytes[position..<(position + count)])
            for _ in 0..<copies { bytes.insert(contentsOf: piece, at: position) }
        case .truncate:
            bytes.removeSubrange(position...)
        case .insertToken, .overwriteToken:
            let token = Self.token(fuzzer, using: &random)
            if self == .overwriteToken {
                bytes.removeSubrange(position..<min(position + token.count, bytes.count))
            }
            bytes.insert(contentsOf: token, at: position)
        case .insertNumberText:
            bytes.insert(contentsOf: FuzzInteresting.numberText(using: &random), at: position)
        case .replaceNumberText:
            Self.replaceDigits(in: &bytes, near: position, using: &random)
        case .overwriteNumberBinary:
            let encoded = FuzzInteresting.numberBinary(using: &random)
            bytes.removeSubrange(position..<min(position + encoded.count, bytes.count))
            bytes.insert(contentsOf: encoded, at: position)
        case .splice:
            let other = fuzzer.corpus[Int.random(in: 0..<fuzzer.corpus.count, using: &random)]
            let cut = Int.random(in: 0...other.count, using: &random)
            bytes.replaceSubrange(position..., with: other[cut...])
        }
    }

    /// A dictionary token, or an interesting number's text when the target has no dictionary.
    private static func token(_ fuzzer: Fuzzer, using random: inout SeededRandom) -> [UInt8] {
        guard !fuzzer.dictionary.isEmpty else { return FuzzInteresting.numberText(using: &random) }
        return fuzzer.dictionary[Int.random(in: 0..<fuzzer.dictionary.count, using: &random)]
    }

    /// Replaces the first run of digits at or after `position` (or before it, when none follows) with an
    /// interesting number's text: how numbers in text formats get their edge values.
    private static func replaceDigits(in bytes: inout [UInt8], near position: Int, using random: inout SeededRandom) {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard let start = bytes[position...].firstIndex(where: isDigit) ?? bytes[..<position].lastIndex(where: isDigit)
        else { return bytes.insert(contentsOf: FuzzInteresting.numberText(using: &random), at: position) }
        var lower = start
        while lower > 0, isDigit(bytes[lower - 1]) || bytes[lower - 1] == UInt8(ascii: "-") { lower -= 1 }
        let upper = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.count
        bytes.replaceSubrange(lower..<upper, with: FuzzInteresting.numberText(using: &random))
    }
}
