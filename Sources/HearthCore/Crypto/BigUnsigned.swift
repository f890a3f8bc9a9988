/// A non-negative integer of any size, as RSA needs it: built from big-endian bytes, multiplied, reduced and raised
/// to a power modulo another. Limbs are 32-bit, least significant first, with no zero limbs on top, so products
/// and divisions fit in 64-bit arithmetic. Not constant-time: it is for verifying signatures with public keys,
/// never for computing with secrets.
public struct BigUnsigned: Sendable, Hashable, Comparable {
    /// Least significant first; empty for zero.
    private(set) var limbs: [UInt32]

    init(limbs: [UInt32]) {
        var limbs = limbs
        while limbs.last == 0 { limbs.removeLast() }
        self.limbs = limbs
    }

    /// The number whose big-endian unsigned representation is `bytes` (leading zeros allowed).
    public init(bigEndian bytes: some Collection<UInt8>) {
        var limbs: [UInt32] = []
        limbs.reserveCapacity(bytes.count / 4 + 1)
        var limb: UInt32 = 0
        var shift: UInt32 = 0
        for byte in bytes.reversed() {
            limb |= UInt32(byte) << shift
            shift += 8
            if shift == 32 {
                limbs.append(limb)
                limb = 0
                shift = 0
            }
        }
        if shift > 0 { limbs.append(limb) }
        self.init(limbs: limbs)
    }

    public init(_ value: UInt64) {
        self.init(limbs: [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)])
    }

    public var isZero: Bool { self.limbs.isEmpty }

    public var isOdd: Bool { (self.limbs.first ?? 0) & 1 == 1 }

    /// How many bits the number needs (0 for zero).
    public var bitWidth: Int {
        guard let top = self.limbs.last else { return 0 }
        return self.limbs.count * 32 - top.leadingZeroBitCount
    }

    /// The number as exactly `count` big-endian bytes, or nil when it needs more.
    public func bigEndianBytes(count: Int) -> [UInt8]? {
        guard (self.bitWidth + 7) / 8 <= count else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        for (index, limb) in self.limbs.enumerated() {
            for byte in 0..<4 {
                let position = count - 1 - (index * 4 + byte)
                guard position >= 0 else { break }
                bytes[position] = UInt8(truncatingIfNeeded: limb >> (8 * UInt32(byte)))
            }
        }
        return bytes
    }

    public static func < (lhs: BigUnsigned, rhs: BigUnsigned) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    public static func + (lhs: BigUnsigned, rhs: BigUnsigned) -> BigUnsigned {
        var sum = [UInt32](repeating: 0, count: max(lhs.limbs.count, rhs.limbs.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<sum.count {
            let left = index < lhs.limbs.count ? UInt64(lhs.limbs[index]) : 0
            let right = index < rhs.limbs.count ? UInt64(rhs.limbs[index]) : 0
            let total = left + right + carry
            sum[index] = UInt32(truncatingIfNeeded: total)
            carry = total >> 32
        }
        return BigUnsigned(limbs: sum)
    }

    public static func * (lhs: BigUnsigned, rhs: BigUnsigned) -> BigUnsigned {
        guard !lhs.isZero, !rhs.isZero else { return BigUnsigned(limbs: []) }
        var product = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, right) in rhs.limbs.enumerated() {
                let sum = UInt64(left) * UInt64(right) + UInt64(product[i + j]) + carry
                product[i + j] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            product[i + rhs.limbs.count] = UInt32(truncatingIfNeeded: carry)
        }
        return BigUnsigned(limbs: product)
    }

    /// The remainder of dividing by `modulus` (Knuth's algorithm D).
    /// - Precondition: `modulus` is not zero.
    public func remainder(dividingBy modulus: BigUnsigned) -> BigUnsigned {
        precondition(!modulus.isZero, "division by zero")
        if self < modulus { return self }
        let v = modulus.limbs
        let n = v.count
        if n == 1 {
            var remainder: UInt64 = 0
            for limb in self.limbs.reversed() { remainder = (remainder << 32 | UInt64(limb)) % UInt64(v[0]) }
            return BigUnsigned(remainder)
        }
        // Normalise so the divisor's top limb has its high bit set.
        let shift = UInt32(v[n - 1].leadingZeroBitCount)
        let vn = Self.shiftedLeft(v, by: shift, count: n)
        var un = Self.shiftedLeft(self.limbs, by: shift, count: self.limbs.count + 1)
        let base: UInt64 = 1 << 32
        for j in stride(from: self.limbs.count - n, through: 0, by: -1) {
            let numerator = UInt64(un[j + n]) << 32 | UInt64(un[j + n - 1])
            var qhat = numerator / UInt64(vn[n - 1])
            var rhat = numerator % UInt64(vn[n - 1])
            while qhat >= base || qhat * UInt64(vn[n - 2]) > (rhat << 32 | UInt64(un[j + n - 2])) {
                qhat -= 1
                rhat += UInt64(vn[n - 1])
                if rhat >= base { break }
            }
            // Multiply and subtract qhat × divisor from the current window.
            var borrow: Int64 = 0
            for i in 0..<n {
                let product = qhat * UInt64(vn[i])
                let difference = Int64(un[i + j]) - borrow - Int64(product & 0xFFFF_FFFF)
                un[i + j] = UInt32(truncatingIfNeeded: difference)
                borrow = Int64(product >> 32) - (difference >> 32)
            }
            let top = Int64(un[j + n]) - borrow
            un[j + n] = UInt32(truncatingIfNeeded: top)
            if top < 0 {
                // qhat was one too large: add the divisor back.
                var carry: UInt64 = 0
                for i in 0..<n {
                    let sum = UInt64(un[i + j]) + UInt64(vn[i]) + carry
                    un[i + j] = UInt32(truncatingIfNeeded: sum)
                    carry = sum >> 32
                }
                un[j + n] = UInt32(truncatingIfNeeded: UInt64(un[j + n]) + carry)
            }
        }
        // Undo the normalisation on the remainder (the low n limbs).
        var remainder = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            let low = UInt64(un[i]) >> UInt64(shift)
            let high = shift == 0 ? 0 : (UInt64(un[i + 1]) << (32 - UInt64(shift))) & 0xFFFF_FFFF
            remainder[i] = UInt32(truncatingIfNeeded: low | high)
        }
        return BigUnsigned(limbs: remainder)
    }

    /// `self` to the power `exponent`, modulo `modulus` (square and multiply, most significant bit first).
    public func power(_ exponent: BigUnsigned, modulo modulus: BigUnsigned) -> BigUnsigned {
        var result = BigUnsigned(1).remainder(dividingBy: modulus)
        let base = self.remainder(dividingBy: modulus)
        for bit in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = (result * result).remainder(dividingBy: modulus)
            if exponent.limbs[bit / 32] >> UInt32(bit % 32) & 1 == 1 {
                result = (result * base).remainder(dividingBy: modulus)
            }
        }
        return result
    }

    /// `limbs` shifted left by `shift` bits (< 32), in `count` limbs.
    private static func shiftedLeft(_ limbs: [UInt32], by shift: UInt32, count: Int) -> [UInt32] {
        var shifted = [UInt32](repeating: 0, count: count)
        for (index, limb) in limbs.enumerated() {
            shifted[index] |= limb << shift
            if shift > 0, index + 1 < count { shifted[index + 1] |= limb >> (32 - shift) }
        }
        return shifted
    }
}
