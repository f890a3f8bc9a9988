extension WriteSessions {
    /// The sequence numbers one client's session keeps as applied (`Session.applied`), as a set would keep them, but
    /// with none or one held inline: a client that settles everything before its next write (each write carries
    /// its own number as the mark) always has at most one, so recording it and asking after it hash nothing and
    /// allocate nothing. Two or more are a `Set`. Each count has one form, so equal contents are equal values.
    struct AppliedWrites: Sendable, Equatable {
        /// The numbers, in the one form their count allows.
        private enum Storage: Sendable, Equatable {
            case none
            case one(UInt64)
            /// Two or more.
            case many(Set<UInt64>)
        }

        private var storage: Storage

        /// The numbers of `set`.
        init(_ set: Set<UInt64>) {
            self.storage = Self.storage(of: set)
        }

        /// The numbers, as a set (for snapshots and tests).
        var set: Set<UInt64> {
            switch self.storage {
            case .none: []
            case .one(let sequence): [sequence]
            case .many(let set): set
            }
        }

        /// How many numbers are kept.
        var count: Int {
            switch self.storage {
            case .none: 0
            case .one: 1
            case .many(let set): set.count
            }
        }

        /// Whether `sequence` is kept.
        func contains(_ sequence: UInt64) -> Bool {
            switch self.storage {
            case .none: false
            case .one(let kept): kept == sequence
            case .many(let set): set.contains(sequence)
            }
        }

        /// Keeps `sequence` too.
        mutating func insert(_ sequence: UInt64) {
            switch self.storage {
            case .none:
                self.storage = .one(sequence)
            case .one(let kept):
                if kept != sequence { self.storage = .many([kept, sequence]) }
            case .many(var set):
                // Taken out first, so the set is edited without a copy.
                self.storage = .none
                set.insert(sequence)
                self.storage = .many(set)
            }
        }

        /// Forgets every number below `mark`.
        mutating func removeAll(below mark: UInt64) {
            switch self.storage {
            case .none:
                return
            case .one(let kept):
                if kept < mark { self.storage = .none }
            case .many(let set):
                self.storage = Self.storage(of: set.allSatisfy { $0 < mark } ? [] : set.filter { $0 >= mark })
            }
        }

        /// Forgets the `count` smallest numbers.
        mutating func removeOldest(_ count: Int) {
            guard case .many(var set) = self.storage, count > 0 else {
                if count > 0 { self.storage = .none }
                return
            }
            set.subtract(set.sorted().prefix(count))
            self.storage = Self.storage(of: set)
        }

        /// The one form `set`'s count allows.
        private static func storage(of set: Set<UInt64>) -> Storage {
            switch set.count {
            case 0: .none
            case 1: set.first.map(Storage.one) ?? .none
            default: .many(set)
            }
        }
    }
}
