public import HearthCore

extension WriteRules {
    /// Reads a write's data straight from its document under the write rules (see `WriteRules+Reading.swift`): one
    /// value (a put's), or an update's members and then their mutations. It keeps its scratch space — the members'
    /// keys as bytes, their places in sorted order, the mutations' paths and `WriteValue.Reader`'s — from one write
    /// to the next, so a connection that keeps one reads each write without allocating any of it (a realtime star
    /// read with a fresh reader allocated about ten blocks of scratch, its four member keys among them). Keys are
    /// never made `String`s: they are compared and split as paths from their bytes.
    ///
    /// A reader holds nothing of a write's values once it is answered (`updateMutations(at:)`); its member keys
    /// (which `sortedKeys` reads) wait until `clear()`, which also lets go of scratch space grown past a small bound,
    /// so one huge write does not stay charged to its connection.
    public struct DataReader {
        /// Most members, and bytes of their keys, whose space is kept from one write to the next.
        static let keptMembers = 16
        static let keptKeyBytes = 1024
        /// How many members, and bytes of their keys, a new reader makes room for.
        static let expectedMembers = 8
        static let expectedKeyBytes = 256

        /// The members' keys, decoded, one after another.
        private var keyBytes: [UInt8] = []
        /// Where each member's key lies in `keyBytes`, in document order.
        private var keys: [Range<Int>] = []
        /// Each member's value, in document order; empty once their mutations are made, each taken out (moved, not
        /// copied: a copy retains every part of the value) as its mutation is made.
        private var readings: [WriteValue.Reading?] = []
        /// The members' places in sorted key order, from `updateMutations(at:)` until the next read.
        private var order: [Int] = []
        /// The mutations' paths, for the overlap check of an update of more members than are compared pairwise.
        private var paths: [Path] = []
        private var reader = WriteValue.Reader()

        public init() {}

        /// Reads the value at `cursor` (a put's data) and moves past it; nil when it breaks JSON or a data rule.
        /// - Parameter maximumNesting: the nesting left for the value where it sits in its document (`JSONCursor`).
        /// - Complexity: O(n) in the size of the value.
        public mutating func read(_ cursor: inout JSONCursor, maximumNesting: Int) -> WriteValue.Reading? {
            try? self.reader.read(&cursor, maximumNesting: maximumNesting)
        }

        /// Reads the members of the JSON object at `cursor`, in document order, and moves past it, replacing the
        /// members read before; false when it is not an object or any member breaks JSON or a data rule.
        /// - Parameter maximumNesting: the nesting left for the object where it sits in its document (`JSONCursor`).
        /// - Complexity: O(n) in the size of the object.
        public mutating func readMembers(_ cursor: inout JSONCursor, maximumNesting: Int) -> Bool {
            self.clear()
            // A new reader makes room once for as many members as most updates have (a star's four paths), rather
            // than growing each array by doubling from one.
            if self.keys.capacity == 0 {
                self.keys.reserveCapacity(Self.expectedMembers)
                self.readings.reserveCapacity(Self.expectedMembers)
                self.keyBytes.reserveCapacity(Self.expectedKeyBytes)
            }
            do {
                var next = try cursor.enterObject(appendingKeyTo: &self.keyBytes)
                while let key = next {
                    self.keys.append(key)
                    self.readings.append(try self.reader.read(&cursor, maximumNesting: maximumNesting - 1))
                    next = try cursor.nextKey(appendingTo: &self.keyBytes)
                }
            } catch {
                self.clear()
                return false
            }
            return true
        }

        /// The mutations of the members read, at `base`, in their keys' sorted order (UTF-8 byte order), as
        /// `update(_:at:)` gives them; nil (see above). The values read are let go of either way.
        /// - Complexity: O(n + k log k) for k members whose keys are n bytes together.
        public mutating func updateMutations(at base: Path) -> [Mutation]? {
            var readings = self.readings
            self.readings = []
            defer {
                Self.empty(&readings, keeping: Self.keptMembers)
                self.readings = readings
                Self.empty(&self.paths, keeping: Self.keptMembers)
            }
            // The keys' places are sorted, not the members: copying a member retains every reference its value holds.
            var order = self.order
            self.order = []
            defer { self.order = order }
            Self.empty(&order, keeping: .max)
            order.append(contentsOf: self.keys.indices)
            var paths = self.paths
            self.paths = []
            defer { self.paths = paths }
            Self.empty(&paths, keeping: .max)
            var mutations: [Mutation] = []
            mutations.reserveCapacity(self.keys.count)
            let made = self.keyBytes.withUnsafeBufferPointer { bytes -> Bool in
                self.keys.withUnsafeBufferPointer { keys -> Bool in
                    Self.sort(&order, keys: keys, in: bytes)
                    var previous: UnsafeBufferPointer<UInt8>?
                    // Which members' keys name their paths plainly, by place (read for the few compared pairwise).
                    var plain: UInt64 = 0
                    for index in order {
                        let key = UnsafeBufferPointer(rebasing: bytes[keys[index]])
                        // Keys with equal bytes sort next to each other.
                        guard !(previous.map { Key.bytesEqual($0, key) } ?? false),
                            let (location, isPlain) = WriteRules.validLocationAndForm(
                                key, below: base, allowingPriority: true),
                            let reading = readings[index].take()
                        else { return false }
                        previous = key
                        if isPlain && index < UInt64.bitWidth { plain |= 1 << index }
                        // Past the pairwise check the paths are sorted: kept as they are made, since taking them out
                        // of the mutations again copies every value.
                        if keys.count > WriteRules.pairwiseOverlapLimit { paths.append(location.path) }
                        // The location and the value are handed on, not copied (a copy retains the path and the value).
                        guard let mutation = WriteRules.set(reading, at: location) else { return false }
                        // Moved, not copied: a copy retains the path and every part of the value.
                        mutations.append(consume mutation)
                    }
                    guard keys.count <= WriteRules.pairwiseOverlapLimit else {
                        return (try? WriteRules.checkOverlaps(paths: paths)) != nil
                    }
                    // Few members (a star's four): every pair compared over the keys' bytes, as `checkOverlaps` would;
                    // two keys that name their paths plainly by one comparison.
                    for first in keys.indices {
                        let outer = UnsafeBufferPointer(rebasing: bytes[keys[first]])
                        for second in keys.indices where second != first {
                            let inner = UnsafeBufferPointer(rebasing: bytes[keys[second]])
                            let bothPlain = plain & (1 << first) != 0 && plain & (1 << second) != 0
                            if bothPlain
                                ? WriteRules.plainlyContains(outer, inner) : WriteRules.segmentsContain(outer, inner)
                            {
                                return false
                            }
                        }
                    }
                    return true
                }
            }
            return made ? mutations : nil
        }

        /// Sorts `order`, places in `keys`, by the keys' bytes (`JSONKey.bytesPrecede`): by insertion for as few
        /// members as most updates have (a star's four), where the standard sort's closure and its generic
        /// machinery cost more than the comparisons; the standard sort for more.
        static func sort(
            _ order: inout [Int], keys: UnsafeBufferPointer<Range<Int>>, in bytes: UnsafeBufferPointer<UInt8>
        ) {
            func key(_ place: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[keys[place]]) }
            guard order.count <= WriteRules.pairwiseOverlapLimit else {
                return order.sort { JSONKey.bytesPrecede(key($0), key($1)) }
            }
            order.withUnsafeMutableBufferPointer { order in
                for end in order.indices.dropFirst() {
                    let place = order[end]
                    var index = end
                    while index > 0 && JSONKey.bytesPrecede(key(place), key(order[index - 1])) {
                        order[index] = order[index - 1]
                        index -= 1
                    }
                    order[index] = place
                }
            }
        }

        /// The members' keys in sorted order as `String`s, after `updateMutations(at:)` made their mutations.
        public var sortedKeys: [String] {
            self.keyBytes.withUnsafeBufferPointer { bytes in
                self.order.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[self.keys[$0]]), as: UTF8.self) }
            }
        }

        /// Forgets the members read (a caller that read them and then declined the write lets go of their values
        /// here), keeping the space for the next write's unless it grew past the bounds.
        public mutating func clear() {
            // Most calls find them cleared already (the write was answered), which costs nothing to see.
            guard !self.keys.isEmpty || !self.keyBytes.isEmpty || !self.readings.isEmpty else { return }
            Self.empty(&self.keyBytes, keeping: Self.keptKeyBytes)
            Self.empty(&self.keys, keeping: Self.keptMembers)
            Self.empty(&self.readings, keeping: Self.keptMembers)
            Self.empty(&self.order, keeping: Self.keptMembers)
        }

        /// Empties `array`, keeping its space unless it holds room for more than `kept` elements. An empty array
        /// within the bound is left as it is: emptying it anyway still runs the standard library's general
        /// `replaceSubrange` (or, for one never allocated, its unspecialised allocation of nothing).
        static func empty<Element>(_ array: inout [Element], keeping kept: Int) {
            guard !array.isEmpty || array.capacity > kept else { return }
            array.removeAll(keepingCapacity: array.capacity <= kept)
        }
    }
}
