extension RuleRegex {
    /// The Unicode scalars one step of a regular expression accepts: a literal, `.`, `\d`, `[a-z]`, `[^0-9]`, … as
    /// sorted, disjoint ranges, possibly negated, possibly ignoring case. A negated set with `i` is negated after
    /// folding, as RE2 folds a class before negating it (`(?i)[^a]` accepts neither `a` nor `A`).
    struct ScalarSet: Sendable, Hashable {
        /// Sorted, disjoint and non-adjacent ranges of scalar values.
        private(set) var ranges: [ClosedRange<UInt32>]
        /// Whether the set accepts every scalar outside `ranges` instead of those inside.
        var isNegated: Bool
        /// Whether a scalar is also accepted when its simple lower- or upper-case mapping is in the ranges.
        var foldsCase: Bool

        init(_ ranges: [ClosedRange<UInt32>], isNegated: Bool = false, foldsCase: Bool = false) {
            self.ranges = Self.normalized(ranges)
            self.isNegated = isNegated
            self.foldsCase = foldsCase
        }

        /// The greatest Unicode scalar value.
        static let maximum: UInt32 = 0x10FFFF

        /// `\d`: the ASCII digits, as in RE2.
        static let digits = ScalarSet([0x30...0x39])
        /// `\w`: ASCII letters, digits and `_`, as in RE2.
        static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        /// `\s`: tab, newline, form feed, carriage return and space, as in RE2.
        static let space = ScalarSet([0x09...0x0A, 0x0C...0x0D, 0x20...0x20])
        /// `.`: anything but a newline, as in RE2 without the `s` flag.
        static let anyButNewline = ScalarSet([0x0A...0x0A], isNegated: true)

        /// Whether the set accepts `scalar`.
        func contains(_ scalar: Unicode.Scalar) -> Bool {
            var found = self.rangesContain(scalar.value)
            if !found, self.foldsCase {
                found = Self.simpleCaseVariants(of: scalar).contains { self.rangesContain($0) }
            }
            return found != self.isNegated
        }

        /// The ranges this set accepts as a positive set (the negation applied; case folding must already be
        /// absent), so a class can hold `\D` or `\W`.
        var positiveRanges: [ClosedRange<UInt32>] {
            self.isNegated ? Self.complement(self.ranges) : self.ranges
        }

        private func rangesContain(_ value: UInt32) -> Bool {
            var low = 0
            var high = self.ranges.count
            while low < high {
                let middle = (low + high) / 2
                let range = self.ranges[middle]
                if value < range.lowerBound {
                    high = middle
                } else if value > range.upperBound {
                    low = middle + 1
                } else {
                    return true
                }
            }
            return false
        }

        /// The scalar's simple (one-scalar) lower- and upper-case mappings: `i` ignores case by them, which covers
        /// ASCII and the simple case folding of other scripts; multi-scalar mappings (`ß` → `SS`) are not used.
        static func simpleCaseVariants(of scalar: Unicode.Scalar) -> [UInt32] {
            let value = scalar.value
            if value < 0x80 {
                if (0x41...0x5A).contains(value) { return [value + 0x20] }
                if (0x61...0x7A).contains(value) { return [value - 0x20] }
                return []
            }
            var variants: [UInt32] = []
            for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
                let scalars = mapping.unicodeScalars
                if scalars.count == 1, let first = scalars.first, first != scalar { variants.append(first.value) }
            }
            return variants
        }

        /// The ranges sorted, with overlapping and adjacent ones merged.
        static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var merged: [ClosedRange<UInt32>] = []
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last,
                    range.lowerBound <= last.upperBound || range.lowerBound == last.upperBound &+ 1
                {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            return merged
        }

        /// Every scalar value up to `maximum` outside the (normalized) ranges.
        static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            var next: UInt32 = 0
            for range in ranges {
                if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
                guard range.upperBound < Self.maximum else { return result }
                next = range.upperBound + 1
            }
            result.append(next...Self.maximum)
            return result
        }
    }
}
