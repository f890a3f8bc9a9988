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
        var members: [ReadMember] = []
        // Room for a typical update's members up front (a star has four): growing from one copies them twice.
        members.reserveCapacity(Self.expectedMembers)
        do {
            var next = try cursor.enterObject()
            while let key = next {
                members.append((key, try WriteValue.read(&cursor, maximumNesting: maximumNesting - 1)))
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
        let order = unsorted.indices.sorted { JSONKey.precedes(unsorted[$0], unsorted[$1]) }
        var keys: [String] = []
        var mutations: [Mutation] = []
        keys.reserveCapacity(members.count)
        mutations.reserveCapacity(members.count)
        for index in order {
            let key = unsorted[index]
            // Keys with equal bytes sort next to each other.
            guard !(keys.last.map { JSONKey.sameBytes($0, key) } ?? false),
                let location = try? Self.location(key, below: base, allowingPriority: true),
                let mutation = Self.set(members[index].reading, at: location)
            else { return nil }
            keys.append(key)
            mutations.append(mutation)
        }
        guard (try? Self.checkOverlaps(mutations)) != nil else { return nil }
        return (keys, mutations)
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
