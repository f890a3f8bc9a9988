/// Reading JSON numbers: exact `Int64` for plain integers, correctly rounded finite doubles for the rest.
extension JSONScanner {
    /// Powers of ten that doubles represent exactly, for the fast path.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` starting at `position`.
    ///
    /// Integers (no fraction, no exponent) within `Int64` come back as `.int`. Everything else is a double: when the
    /// digits fit in 15 decimal places and the exponent is within ±22 the value is computed exactly (Clinger's fast
    /// path); otherwise the stdlib's correctly rounded conversion runs on the number's text. Infinite results throw.
    mutating func readNumber() throws(JSONError) -> Token {
        let count = self.bytes.count
        let start = self.position
        var index = start
        var negative = false
        if self.bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        guard index < count, let first = Self.digitValue(self.bytes[index]) else {
            throw self.invalidNumber(start: start, at: index, "expected a digit")
        }
        if first == 0 {
            index += 1
            if index < count, Self.digitValue(self.bytes[index]) != nil {
                throw self.invalidNumber(start: start, at: index, "leading zeros are not allowed")
            }
        } else {
            while index < count, let digit = Self.digitValue(self.bytes[index]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                digits += 1
                index += 1
            }
        }
        var fractionDigits = 0
        var isInteger = true
        if index < count && self.bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            while index < count, let digit = Self.digitValue(self.bytes[index]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                if digits > 0 || digit != 0 { digits += 1 }
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else {
                throw self.invalidNumber(start: start, at: index, "expected a digit after the decimal point")
            }
        }
        var exponent = 0
        if index < count && (self.bytes[index] == UInt8(ascii: "e") || self.bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            var negativeExponent = false
            if index < count && (self.bytes[index] == UInt8(ascii: "+") || self.bytes[index] == UInt8(ascii: "-")) {
                negativeExponent = self.bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponentDigits = 0
            while index < count, let digit = Self.digitValue(self.bytes[index]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else {
                throw self.invalidNumber(start: start, at: index, "expected a digit in the exponent")
            }
            if negativeExponent { exponent = -exponent }
        }
        self.position = index
        if isInteger && digits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) { return .int(-Int64(mantissa)) }
                if mantissa == UInt64(Int64.max) + 1 { return .int(Int64.min) }
            } else if mantissa <= UInt64(Int64.max) {
                return .int(Int64(mantissa))
            }
        }
        let decimalExponent = exponent - fractionDigits
        if digits <= 15 && decimalExponent >= -22 && decimalExponent <= 22 {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= Self.exactPowersOfTen[-decimalExponent]
            } else {
                value *= Self.exactPowersOfTen[decimalExponent]
            }
            return .double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: self.bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONError(
                .numberOutOfRange,
                "Number \(text.count > 40 ? String(text.prefix(40)) + "…" : text)"
                    + " at byte \(start) is too large: numbers must fit in a 64-bit double.",
                offset: start
            )
        }
        return .double(value)
    }

    private static func digitValue(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }

    private func invalidNumber(start: Int, at index: Int, _ reason: String) -> JSONError {
        JSONError(
            .invalidNumber,
            "Invalid number at byte \(start): \(reason) (found \(self.describeByte(at: index)) at byte \(index)).",
            offset: index
        )
    }
}
