public import HearthCore

/// The write rules applied to values read straight from a larger JSON document (a realtime message's data, a REST
/// PATCH body), with no `JSONValue` in between.
///
/// These readers only ever succeed with what `set(_:at:)` and `update(_:at:)` would give for the same JSON read
/// into a `JSONValue` first; whenever the two could differ or a rule is broken they return nil, and the caller
/// reads the document the general way, which finds the error and words it. So no answer, error text or order of
/// checks depends on which reader ran. What they decline: any broken rule or broken JSON, two members of one update
/// that are the same key (a `JSONValue` keeps the last, silently), and child keys with non-ASCII bytes (two of them
/// can be one key to a `[String: JSONValue]` while their bytes differ, see `WriteValue.parseWrite(reading:…)`).
extension WriteRules {
    /// A set of the JSON value at `cursor` at `location`, or nil (see above); the cursor ends after the value.
    /// - Parameter maximumNesting: the nesting left for the value where it sits in its document (`JSONCursor`).
    /// - Complexity: O(n) in the size of the value.
    public static func set(reading cursor: inout JSONCursor, maximumNesting: Int, at location: WriteLocation)
        -> Mutation?
    {
        guard
            let (value, keysAreASCII) = try? WriteValue.parseWrite(
                reading: &cursor, depth: location.path.count, maximumNesting: maximumNesting),
            keysAreASCII
        else { return nil }
        return try? Self.mutation(value, at: location)
    }

    /// A multi-path update read from the JSON object at `cursor`, at `base`: the members' keys in sorted order and
    /// their mutations in the same order, as `update(_:at:)` gives them; or nil (see above).
    /// - Parameter maximumNesting: the nesting left for the object where it sits in its document (`JSONCursor`).
    /// - Complexity: O(n + k log k) for k members of total size n.
    public static func update(reading cursor: inout JSONCursor, maximumNesting: Int, at base: Path)
        -> (keys: [String], mutations: [Mutation])?
    {
        var members: [(key: String, mutation: Mutation)] = []
        do {
            var next = try cursor.enterObject()
            while let key = next {
                let location = try Self.location(key, below: base, allowingPriority: true)
                guard let mutation = Self.set(reading: &cursor, maximumNesting: maximumNesting - 1, at: location)
                else { return nil }
                members.append((key, mutation))
                next = try cursor.nextKey()
            }
        } catch {
            return nil
        }
        members.sort { $0.key < $1.key }
        // Keys equal as `String`s sort next to each other.
        for (first, second) in zip(members, members.dropFirst()) where first.key == second.key { return nil }
        let mutations = members.map(\.mutation)
        guard (try? Self.checkOverlaps(mutations)) != nil else { return nil }
        return (members.map(\.key), mutations)
    }

    /// A multi-path update from the whole JSON document `body` (a REST PATCH's), at `base`; or nil (see above).
    /// - Complexity: O(n + k log k) for k members in n bytes.
    public static func update(body: [UInt8], at base: Path) -> (keys: [String], mutations: [Mutation])? {
        body.withUnsafeBufferPointer { bytes in
            var cursor = JSONCursor(bytes)
            guard
                let update = Self.update(
                    reading: &cursor, maximumNesting: JSONReader.defaultMaximumNesting, at: base),
                (try? cursor.expectEnd()) != nil
            else { return nil }
            return update
        }
    }
}
