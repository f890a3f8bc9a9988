import HearthCore
import HearthTestKit
import Testing

@Suite struct JSONReaderPropertyTests {
    /// JSONValue → bytes → JSONValue gives the same value, compact and pretty.
    @Test func randomDocumentsRoundTrip() throws {
        for seed in UInt64(1)...300 {
            var random = SeededRandom(seed: seed)
            let value = JSONGenerators.value(&random, depth: 5)
            let expected = JSONGenerators.normalized(value)
            for pretty in [false, true] {
                let bytes = value.jsonBytes(pretty: pretty)
                let parsed = try JSONReader.parseValue(bytes)
                #expect(parsed == expected, "seed \(seed), pretty \(pretty): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// Mutated documents (random bytes replaced, inserted, removed or truncated) only ever parse or throw.
    @Test func mutatedDocumentsNeverTrap() {
        let seed: UInt64 = 0xF022
        var random = SeededRandom(seed: seed)
        let interesting: [UInt8] =
            Array("{}[]\",:\\-+.eE0123456789tfnu \n".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var parsedCount = 0
        var thrownCount = 0
        for round in 0..<10_000 {
            var bytes = JSONGenerators.value(&random, depth: 3).jsonBytes(pretty: round % 4 == 0)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                let byte =
                    Bool.random(using: &random)
                    ? interesting[Int.random(in: 0..<interesting.count, using: &random)]
                    : UInt8.random(in: 0...255, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !bytes.isEmpty: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                case 2 where !bytes.isEmpty: bytes.remove(at: position)
                default: bytes.removeLast(bytes.count - position)
                }
            }
            do {
                _ = try JSONReader.parseValue(bytes)
                parsedCount += 1
            } catch {
                thrownCount += 1
                if error.offset < 0 || error.offset > bytes.count {
                    Issue.record("seed \(seed) round \(round): offset \(error.offset) outside \(bytes.count) bytes")
                }
            }
            var builder = WriteValueProbe()
            _ = try? JSONReader().parse(bytes, into: &builder)
            _ = try? WriteValue.parseWrite(bytes, depth: 0)
        }
        #expect(parsedCount + thrownCount == 10_000, "seed \(seed)")
        #expect(thrownCount > 5_000, "seed \(seed): mutations should mostly break documents")
    }

    @Test func nestingLimitIsEnforcedWithoutRecursion() throws {
        let limit = JSONReader.defaultMaximumNesting
        let deepestAllowed = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONValue.parsing(deepestAllowed) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = try #require(throws: JSONError.self) { try JSONValue.parsing(tooDeep) }
        #expect(error.code == .nestingTooDeep)
        #expect(error.offset == limit)
        let hostile = String(repeating: "{\"a\":[", count: 200_000)
        #expect(throws: JSONError.self) { try JSONValue.parsing(hostile) }
    }

    @Test func nestingLimitIsConfigurable() throws {
        var builder = JSONValueBuilder()
        let reader = JSONReader(maximumNesting: 2)
        #expect(try reader.parse(Array("[[1]]".utf8), into: &builder) == .array([.array([.int(1)])]))
        #expect(throws: JSONError.self) { try reader.parse(Array("[[[1]]]".utf8), into: &builder) }
        #expect(throws: JSONError.self) { try reader.parse(Array("{\"a\":{\"b\":{}}}".utf8), into: &builder) }
    }

    /// Deeply nested values written by the writer come back intact.
    @Test func deepValuesRoundTrip() throws {
        var value = JSONValue.int(1)
        for level in 0..<900 { value = level.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
        #expect(try JSONReader.parseValue(value.jsonBytes()) == value)
    }
}

/// A builder that counts events and checks the reader calls it in a well-formed order.
struct WriteValueProbe: JSONBuilder {
    typealias Value = Int
    typealias Container = Int
    typealias Failure = JSONError

    var announced = 0

    static func failure(_ syntaxError: JSONError) -> JSONError { syntaxError }
    mutating func makeNull() -> Int { self.consume() }
    mutating func makeBool(_ value: Bool) -> Int { self.consume() }
    mutating func makeInt(_ value: Int64) -> Int { self.consume() }
    mutating func makeDouble(_ value: Double) -> Int { self.consume() }
    mutating func makeString(_ value: String) -> Int { self.consume() }
    mutating func beginObject() -> Int {
        _ = self.consume()
        return 0
    }
    mutating func beginArray() -> Int {
        _ = self.consume()
        return 0
    }
    mutating func beginMember(_ key: String, in container: inout Int) { self.announced += 1 }
    mutating func beginElement(in container: inout Int) { self.announced += 1 }
    mutating func endMember(_ value: Int, in container: inout Int) { container += value }
    mutating func endObject(_ container: Int) -> Int { container + 1 }
    mutating func endArray(_ container: Int) -> Int { container + 1 }

    /// Every value must have been announced by exactly one member or element (or be the root).
    private mutating func consume() -> Int {
        if self.announced > 0 { self.announced -= 1 }
        return 1
    }
}
