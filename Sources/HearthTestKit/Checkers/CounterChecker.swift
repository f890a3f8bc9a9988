/// Jepsen's counter check: a counter that clients only add to (positive or negative deltas) must, when read, hold
/// a value reachable from the acknowledged additions plus some subset of the additions whose answer was lost.
public enum CounterChecker {
    /// One addition as the client saw it.
    public struct Addition: Sendable {
        public var delta: Int64
        /// True when the client got an acknowledgement; false when the answer was lost (it may have happened).
        /// Additions refused outright are not additions and are left out.
        public var acknowledged: Bool

        public init(delta: Int64, acknowledged: Bool) {
            self.delta = delta
            self.acknowledged = acknowledged
        }
    }

    /// What a final read of the counter may show.
    public struct Bounds: Equatable, Sendable {
        public var lower: Int64
        public var upper: Int64

        public init(lower: Int64, upper: Int64) {
            self.lower = lower
            self.upper = upper
        }

        public func contains(_ value: Int64) -> Bool { (self.lower...self.upper).contains(value) }
    }

    /// The range a final read may show, starting from `initial`.
    public static func bounds(_ additions: [Addition], initial: Int64 = 0) -> Bounds {
        var lower = initial
        var upper = initial
        for addition in additions {
            if addition.acknowledged {
                lower += addition.delta
                upper += addition.delta
            } else if addition.delta < 0 {
                lower += addition.delta
            } else {
                upper += addition.delta
            }
        }
        return Bounds(lower: lower, upper: upper)
    }
}

/// Jepsen's set check: after adds (and removes) of unique elements, a final read must hold every acknowledged add
/// not removed, no acknowledged remove, and nothing never attempted; elements whose answer was lost may be either.
public enum SetChecker {
    /// What a final read got wrong.
    public struct Report<Element: Hashable & Sendable>: Equatable, Sendable {
        /// Acknowledged and not removed, but missing from the read.
        public var lost: Set<Element> = []
        /// In the read, but never added, or removed with an acknowledgement.
        public var unexpected: Set<Element> = []

        public var isValid: Bool { self.lost.isEmpty && self.unexpected.isEmpty }
    }

    /// Compares `read` with the adds and removes clients attempted (`true`: acknowledged; `false`: answer lost).
    public static func check<Element>(
        read: Set<Element>, adds: [Element: Bool], removes: [Element: Bool] = [:]
    ) -> Report<Element> {
        var report = Report<Element>()
        for (element, acknowledged) in adds where acknowledged && removes[element] == nil {
            if !read.contains(element) { report.lost.insert(element) }
        }
        for element in read {
            if adds[element] == nil || removes[element] == true { report.unexpected.insert(element) }
        }
        return report
    }
}
