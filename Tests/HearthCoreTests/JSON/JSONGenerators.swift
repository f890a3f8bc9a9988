import HearthCore
import HearthTestKit

/// Seeded generators of JSON documents and trees shared by the JSON and write-value tests.
enum JSONGenerators {
    /// A random `JSONValue` at most `depth` containers deep, with awkward strings and numbers.
    static func value(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(self.int(&random))
        case 3: return .double(self.double(&random))
        case 4, 5: return .string(self.string(&random))
        case 6:
            let count = Int.random(in: 0..<5, using: &random)
            return .array((0..<count).map { _ in self.value(&random, depth: depth - 1) })
        default:
            var members: [JSONKey: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &random) {
                members[JSONKey(self.string(&random))] = self.value(&random, depth: depth - 1)
            }
            return .object(members)
        }
    }

    static func int(_ random: inout SeededRandom) -> Int64 {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return [Int64.min, Int64.max, 0, -1, 1 << 53, -(1 << 53)][Int.random(in: 0..<6, using: &random)]
        case 1: return Int64(bitPattern: random.next())
        default: return Int64.random(in: -1000...1000, using: &random)
        }
    }

    /// A finite double that does not print as an integer (so it parses back as `.double`).
    static func double(_ random: inout SeededRandom) -> Double {
        while true {
            let candidate: Double
            switch Int.random(in: 0..<3, using: &random) {
            case 0: candidate = Double(bitPattern: random.next())
            case 1: candidate = Double.random(in: -1e6...1e6, using: &random)
            default:
                candidate =
                    [
                        0.1, -2.5, 1e300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
                        9_007_199_254_740_993.0,
                    ][
                        Int.random(in: 0..<6, using: &random)
                    ]
            }
            if candidate.isFinite && !(candidate.magnitude < 9_007_199_254_740_992 && candidate.rounded() == candidate)
            {
                return candidate
            }
        }
    }

    static func string(_ random: inout SeededRandom) -> String {
        let alphabet: [Unicode.Scalar] = [
            "a", "b", "z", "0", "9", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß", "中",
            "\u{2028}", "\u{2029}", "😀", "\u{FFFF}", "\u{10FFFF}",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 0..<8, using: &random) {
            text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
        }
        return text
    }

    /// A random tree of valid keys, optionally with priorities, at most `depth` levels deep.
    static func node(_ random: inout SeededRandom, depth: Int, priorities: Bool) -> Node {
        let priority: Priority? = priorities && Bool.random(using: &random) ? self.priority(&random) : nil
        if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 {
            let leaf: LeafValue
            switch Int.random(in: 0..<4, using: &random) {
            case 0: leaf = .bool(Bool.random(using: &random))
            case 1: leaf = .int(self.int(&random))
            case 2: leaf = .double(self.double(&random))
            default: leaf = .string(self.string(&random))
            }
            return Node(leaf, priority: priority)
        }
        var map = ChildMap()
        for _ in 0..<Int.random(in: 1..<5, using: &random) {
            let name: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0: name = String(Int.random(in: 0..<6, using: &random))
            case 1: name = ["a", "b", "-1", "07", "é", "key with space"][Int.random(in: 0..<6, using: &random)]
            default: name = "k\(Int.random(in: 0..<100, using: &random))"
            }
            map = map.updating(Key(unchecked: name), with: self.node(&random, depth: depth - 1, priorities: priorities))
        }
        return Node(children: map, priority: priority)
    }

    static func priority(_ random: inout SeededRandom) -> Priority {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .int(self.int(&random))
        case 1: return .double(self.double(&random))
        default: return .string(self.string(&random))
        }
    }

    /// `value` as the reader returns it after writing: integral doubles below 2^53 come back as integers.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number.magnitude < 9_007_199_254_740_992 && number.rounded() == number:
            return .int(Int64(number))
        case .array(let elements): return .array(elements.map(self.normalized))
        case .object(let members): return .object(members.mapValues(self.normalized))
        default: return value
        }
    }
}

extension JSONValue {
    /// Test shorthand: parse a UTF-8 literal.
    static func parsing(_ text: String) throws -> JSONValue {
        try JSONReader.parseValue(text)
    }
}
