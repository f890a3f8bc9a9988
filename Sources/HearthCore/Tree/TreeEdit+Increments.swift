extension TreeEdit {
    /// The positions, among a write's edits, of its bare increments left for the apply to resolve
    /// (`Node.apply(_:incrementing:)`): each such edit is a set of the increment's delta at its path, which the apply
    /// turns into a set of the delta added to the number it finds there. Positions below `capacity` only; one word.
    public struct Increments: Sendable, Equatable {
        private var bits: UInt64 = 0

        /// How many positions a set can name: those from 0 to 63.
        public static let capacity = 64

        /// No increment left to the apply.
        public init() {}

        public var isEmpty: Bool { self.bits == 0 }

        public func contains(_ position: Int) -> Bool {
            position >= 0 && position < Self.capacity && self.bits & (1 << UInt64(position)) != 0
        }

        /// Names `position`, which must be below `capacity`.
        public mutating func insert(_ position: Int) {
            precondition(
                position >= 0 && position < Self.capacity, "an increment's position \(position) is out of range")
            self.bits |= 1 << UInt64(position)
        }
    }
}
