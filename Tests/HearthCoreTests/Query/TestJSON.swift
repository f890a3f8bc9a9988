import HearthCore

/// A small strict JSON parser for query tests, standing in for `JSONReader` (written in parallel): enough for
/// REST parameter texts (primitives, arrays, objects, simple escapes), and it rejects trailing text.
enum TestJSON {
    struct Failure: Error {}

    static func parse(_ text: String) throws -> JSONValue {
        var scanner = Scanner(bytes: Array(text.utf8))
        let value = try scanner.value()
        scanner.skipSpace()
        guard scanner.position == scanner.bytes.count else { throw Failure() }
        return value
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while self.position < self.bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(self.bytes[self.position]) {
                self.position += 1
            }
        }

        mutating func literal(_ word: String) -> Bool {
            let expected = Array(word.utf8)
            guard self.bytes[self.position...].starts(with: expected) else { return false }
            self.position += expected.count
            return true
        }

        mutating func value() throws -> JSONValue {
            self.skipSpace()
            guard self.position < self.bytes.count else { throw Failure() }
            switch self.bytes[self.position] {
            case UInt8(ascii: "n"): if self.literal("null") { return .null }
            case UInt8(ascii: "t"): if self.literal("true") { return .bool(true) }
            case UInt8(ascii: "f"): if self.literal("false") { return .bool(false) }
            case UInt8(ascii: "\""): return .string(try self.string())
            case UInt8(ascii: "["): return try self.array()
            case UInt8(ascii: "{"): return try self.object()
            default: return try self.number()
            }
            throw Failure()
        }

        mutating func string() throws -> String {
            self.position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            while self.position < self.bytes.count {
                let byte = self.bytes[self.position]
                self.position += 1
                if byte == UInt8(ascii: "\"") {
                    scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                    return String(scalars)
                }
                if byte == UInt8(ascii: "\\") {
                    guard self.position < self.bytes.count else { throw Failure() }
                    let escaped = self.bytes[self.position]
                    self.position += 1
                    switch escaped {
                    case UInt8(ascii: "n"): raw.append(0x0A)
                    case UInt8(ascii: "t"): raw.append(0x09)
                    default: raw.append(escaped)
                    }
                } else {
                    raw.append(byte)
                }
            }
            throw Failure()
        }

        mutating func number() throws -> JSONValue {
            let start = self.position
            while self.position < self.bytes.count,
                "-+.eE0123456789".utf8.contains(self.bytes[self.position])
            {
                self.position += 1
            }
            let text = String(decoding: self.bytes[start..<self.position], as: UTF8.self)
            if let integer = Int64(text) { return .int(integer) }
            guard !text.isEmpty, let double = Double(text) else { throw Failure() }
            return .double(double)
        }

        mutating func array() throws -> JSONValue {
            self.position += 1
            var elements: [JSONValue] = []
            self.skipSpace()
            if self.literal("]") { return .array(elements) }
            while true {
                elements.append(try self.value())
                self.skipSpace()
                if self.literal("]") { return .array(elements) }
                guard self.literal(",") else { throw Failure() }
            }
        }

        mutating func object() throws -> JSONValue {
            self.position += 1
            var members: [String: JSONValue] = [:]
            self.skipSpace()
            if self.literal("}") { return .object(members) }
            while true {
                self.skipSpace()
                guard self.position < self.bytes.count, self.bytes[self.position] == UInt8(ascii: "\"") else {
                    throw Failure()
                }
                let key = try self.string()
                self.skipSpace()
                guard self.literal(":") else { throw Failure() }
                members[key] = try self.value()
                self.skipSpace()
                if self.literal("}") { return .object(members) }
                guard self.literal(",") else { throw Failure() }
            }
        }
    }
}
