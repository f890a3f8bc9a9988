import HearthCore
import HearthTestKit
import Testing

@Suite struct JSONReaderNumberTests {
    @Test func int64EdgesStayExact() throws {
        #expect(try JSONValue.parsing("9223372036854775807") == .int(Int64.max))
        #expect(try JSONValue.parsing("-9223372036854775807") == .int(-Int64.max))
        #expect(try JSONValue.parsing("-9223372036854775808") == .int(Int64.min))
        #expect(try JSONValue.parsing("9007199254740993") == .int(9_007_199_254_740_993))
    }

    @Test func integersBeyondInt64BecomeDoubles() throws {
        #expect(try JSONValue.parsing("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try JSONValue.parsing("-9223372036854775809") == .double(-9_223_372_036_854_775_809.0))
        #expect(try JSONValue.parsing("18446744073709551616") == .double(18_446_744_073_709_551_616.0))
        #expect(try JSONValue.parsing("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func fractionsAndExponentsAreAlwaysDoubles() throws {
        #expect(try JSONValue.parsing("2.0") == .double(2))
        #expect(try JSONValue.parsing("2e0") == .double(2))
        #expect(try JSONValue.parsing("-0.0") == .double(-0.0))
    }

    @Test func decimalsRoundCorrectly() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("0.3", 0.3), ("3.141592653589793", 3.141592653589793),
            ("2.2250738585072014e-308", 2.2250738585072014e-308), ("4.9e-324", Double.leastNonzeroMagnitude),
            ("1.7976931348623157e308", Double.greatestFiniteMagnitude), ("9007199254740993.0", 9_007_199_254_740_992),
            ("0.000001", 1e-6), ("123456.789e3", 123_456_789), ("1e22", 1e22), ("1e23", 1e23),
            ("0.1e-22", 1e-23), ("8.41e21", 8.41e21), ("5e-1", 0.5),
        ]
        for (text, expected) in cases {
            #expect(try JSONValue.parsing(text) == .double(expected), "\(text)")
        }
    }

    /// Random bit patterns printed in shortest form and exponent form parse back to the same double.
    @Test func doublesRoundTrip() throws {
        let seed: UInt64 = 0xD0B1E
        var random = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let text =
                value.description.contains(".") || value.description.contains("e")
                ? value.description : value.description + ".0"
            let parsed = try JSONValue.parsing(text)
            #expect(parsed == .double(value), "seed \(seed): \(text)")
            let written = JSONValue.double(value).jsonBytes()
            let reparsed = try JSONReader.parseValue(written)
            #expect(reparsed.numberAsDouble == value, "seed \(seed): \(String(decoding: written, as: UTF8.self))")
        }
    }

    @Test func infiniteResultsAreErrors() {
        for text in ["1e309", "-1e309", "1" + String(repeating: "0", count: 400), "1e99999999999999999999"] {
            #expect(throws: JSONError.self) { try JSONValue.parsing(text) }
        }
    }
}

extension JSONValue {
    /// The number as a double, whichever way it was parsed.
    var numberAsDouble: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}
