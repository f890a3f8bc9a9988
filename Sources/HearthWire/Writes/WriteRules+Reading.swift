public import HearthCore

/// The write rules applied to values read straight from a larger JSON document (a realtime message's data, a REST
/// PATCH body), with no `JSONValue` in between. A value is read once, where it sits, before the path it is written
/// at need be known (a client may send the data before the path); the depth limit is checked when it is placed.
///
/// These readers only ever succeed with what `set(_:at:)` and `update(_:at:)` would give for the same JSON read
/// into a `JSONValue` first; whenever the two could differ or a rule is broken they return nil, and the caller
/// reads the document the general way, which finds the error and words it. So no answer, error text or order of
/// checks depends on which reader ran. What they decline: any broken rule or broken JSON, and two members of one
/// update that are the same key (a `JSONValue` keeps the last, silently). Keys are compared by their bytes on both
/// ways (`Key`, `JSONKey`), so canonically equivalent but differently encoded keys are two keys on both.
extension WriteRules {
    /// A member of an update as read: its key (a relative path) and its value.
    public typealias ReadMember = (key: String, reading: WriteValue.Reading)

    /// Reads the value at `cursor` and moves past it; nil when it breaks JSON or a data rule.
    /// - Parameter maximumNesting: the nesting left for the value where it sits in its document (`JSONCursor`).
    /// - Complexity: O(n) in the size of the value.
    public static func read(_ cursor: inout JSONCursor, maximumNesting: Int) -> WriteValue.Reading? {
        try? WriteValue.read(&cursor, maximumNesting: maximumNesting)
    }

    /// How many members `readMembers` makes room for before it reads any.
    static let expectedMembers = 8

    /// Reads the members of the JSON object at `cursor`, in document order, and moves past it; nil when it is not
    /// an object or any member breaks JSON or a data rule.
    /// - Parameter maximumNesting: the nesting left for the object where it sits in its document (`JSONCursor`).
    /// - Complexity: O(n) in the size of the object.
    public static func readMembers(_ cursor: inout JSONCursor, maximumNesting: Int) -> [ReadMember]? {
        // Room for as many members as most updates have (a star's four paths), and one reader for them all: their
        // scratch space is allocated once per update, not once per member.
        var members: [ReadMember] = []
        members.reserveCapacity(Self.expectedMembers)
        var reader = WriteValue.Reader()
        do {
            var next = try cursor.enterObject()
            while let key = next {
                members.append((key, try reader.read(&cursor, maximumNesting: maximumNesting - 1)))
                next = try cursor.nextKey()
            }
        } catch {
            return nil
        }
        return members
    }

    /// A set of a value read with `read(_:maximumNesting:)` at `location`, or nil (see above).
    /// - Complexity: O(1).
    public static func set(_ reading: WriteValue.Reading, at location: WriteLocation) -> Mutation? {
        guard reading.depth <= Path.maximumDepth - location.path.count else { return nil }
        return try? Self.mutation(reading.value, at: location)
    }

    /// A multi-path update of members read with `readMembers(_:maximumNesting:)`, at `base`: the keys in sorted
    /// order and their mutations in the same order, as `update(_:at:)` gives them; or nil (see above).
    /// - Complexity: O(n + k log k) for k members whose keys are n bytes together.
    public static func update(_ members: [ReadMember], at base: Path) -> (keys: [String], mutations: [Mutation])? {
        // The keys' places are sorted, not the members: copying a member (as a sort and even reading its key
        // through the array do) retains every reference its value holds.
        let unsorted = members.map(\.key)
        guard let (order, mutations) = Self.sortedMutations(members, keys: unsorted, at: base) else { return nil }
        return (order.map { unsorted[$0] }, mutations)
    }

    /// The mutations of `update(_:at:)` alone, for a caller with no use for the sorted keys (a realtime merge).
    /// - Complexity: O(n + k log k) as `update(_:at:)`.
    public static func updateMutations(_ members: [ReadMember], at base: Path) -> [Mutation]? {
        Self.sortedMutations(members, keys: members.map(\.key), at: base)?.mutations
    }

    /// The members' places in sorted key order, and their mutations in that order; nil (see above).
    /// - Parameter keys: the members' keys, in the members' order.
    private static func sortedMutations(
        _ members: [ReadMember], keys: [String], at base: Path
    ) -> (order: [Int], mutations: [Mutation])? {
        let order = keys.indices.sorted { JSONKey.precedes(keys[$0], keys[$1]) }
        var mutations: [Mutation] = []
        mutations.reserveCapacity(members.count)
        // The paths are kept as they are made: taking them out of the mutations again copies every value.
        var paths: [Path] = []
        paths.reserveCapacity(members.count)
        var previous: Int?
        for index in order {
            let key = keys[index]
            // Keys with equal bytes sort next to each other.
            guard !(previous.map { JSONKey.sameBytes(keys[$0], key) } ?? false),
                let location = try? Self.location(key, below: base, allowingPriority: true),
                let mutation = Self.set(members[index].reading, at: location)
            else { return nil }
            previous = index
            paths.append(location.path)
            // Moved, not copied: a copy retains the path and every part of the value, and the binding releases them.
            mutations.append(consume mutation)
        }
        guard (try? Self.checkOverlaps(paths: paths)) != nil else { return nil }
        return (order, mutations)
    }

    /// A multi-path update from the whole JSON document `body` (a REST PATCH's), at `base`; or nil (see above).
    /// - Complexity: O(n + k log k) for k members in n bytes.
    public static func update(body: [UInt8], at base: Path) -> (keys: [String], mutations: [Mutation])? {
        body.withUnsafeBufferPointer { bytes in
            var cursor = JSONCursor(bytes)
            guard
                let members = Self.readMembers(&cursor, maximumNesting: JSONReader.defaultMaximumNesting),
                (try? cursor.expectEnd()) != nil
            else { return nil }
            return Self.update(members, at: base)
        }
    }
}
