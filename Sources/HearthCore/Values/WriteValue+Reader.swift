extension WriteValue {
    /// Reads values one after another from one document (the members of an update), keeping the scratch space a
    /// read takes — the open containers and the keys down to the value being read, which error messages name — from
    /// one value to the next: an update of many small objects (a star's increments) allocates it once, not once per
    /// object. Each read is `WriteValue.read(_:maximumNesting:)`'s, with the same result and the same errors.
    public struct Reader {
        /// The deepest nesting whose scratch space is kept from one read to the next: a reader kept for a
        /// connection's life does not stay as large as the deepest value it ever read.
        static let keptNesting = 8

        /// The keys from the value read down to the one being built (`WriteValueBuilder.location`), empty between
        /// reads.
        private var location: [String] = []
        /// The containers the reader has open (`JSONReader.readValue`), empty between reads.
        private var stack: JSONReader.OpenContainers<WriteValueBuilder.Container> = []
        /// The lists of one server value the reader's values shared lately (`WriteValueBuilder.rootPlaceholders`).
        var recentRootPlaceholders: [[ServerValuePlaceholder]] = []

        public init() {}

        /// Reads the value at `cursor` straight into a tree and moves the cursor past it.
        /// - Parameter maximumNesting: the nesting the value may use, counted from the value (see `JSONCursor`).
        /// - Throws: `JSONError` for syntax, `PathError` for data rules (and for nodes more than
        ///   `Path.maximumDepth` keys below the value).
        /// - Complexity: O(n + k log k) as `parseWrite(_:depth:)`.
        public mutating func read(_ cursor: inout JSONCursor, maximumNesting: Int) throws -> Reading {
            if let reading = self.readServerValueAlone(&cursor, maximumNesting: maximumNesting) { return reading }
            if let reading = Self.readLiteral(&cursor) { return reading }
            var builder = WriteValueBuilder(baseDepth: 0)
            swap(&builder.location, &self.location)
            swap(&builder.recentRootPlaceholders, &self.recentRootPlaceholders)
            builder.keepsRootPlaceholders = true
            defer {
                swap(&builder.location, &self.location)
                swap(&builder.recentRootPlaceholders, &self.recentRootPlaceholders)
                // A read that failed part-way leaves its open containers, and the values in them, behind; a deep
                // one leaves large arrays.
                if !self.stack.isEmpty || self.stack.capacity > Self.keptNesting {
                    self.stack.removeAll(keepingCapacity: self.stack.capacity <= Self.keptNesting)
                }
                if !self.location.isEmpty || self.location.capacity > Self.keptNesting {
                    self.location.removeAll(keepingCapacity: self.location.capacity <= Self.keptNesting)
                }
            }
            let fragment = try cursor.read(into: &builder, maximumNesting: maximumNesting, stack: &self.stack)
            return Reading(value: WriteValue(fragment), depth: builder.deepest)
        }
    }
}
