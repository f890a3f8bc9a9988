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
    /// A set of a value read with `DataReader.read(_:maximumNesting:)` at `location`, or nil (see above).
    /// - Complexity: O(1).
    public static func set(_ reading: consuming WriteValue.Reading, at location: consuming WriteLocation) -> Mutation? {
        guard reading.depth <= Path.maximumDepth - location.path.count else { return nil }
        return try? Self.mutation(reading.value, at: location)
    }

    /// A multi-path update from the whole JSON document `body` (a REST PATCH's), at `base`: the keys in sorted order
    /// and their mutations in the same order, as `update(_:at:)` gives them; or nil (see above).
    /// - Complexity: O(n + k log k) for k members in n bytes.
    public static func update(body: [UInt8], at base: Path) -> (keys: [String], mutations: [Mutation])? {
        var reader = DataReader()
        return Self.update(body: body, at: base, reusing: &reader)
    }

    /// `update(body:at:)` with a reader kept from one update to the next (a front end's), so that reading a PATCH
    /// allocates little beyond the update itself: its members' keys, values, order and paths reuse the reader's
    /// space (`DataReader`). The reader holds no member afterwards, whatever the outcome.
    /// - Complexity: O(n + k log k) for k members in n bytes.
    public static func update(body: [UInt8], at base: Path, reusing reader: inout DataReader) -> (
        keys: [String], mutations: [Mutation]
    )? {
        body.withUnsafeBufferPointer { bytes in
            var cursor = JSONCursor(bytes)
            guard reader.readMembers(&cursor, maximumNesting: JSONReader.defaultMaximumNesting),
                (try? cursor.expectEnd()) != nil,
                let mutations = reader.updateMutations(at: base)
            else {
                reader.clear()
                return nil
            }
            return (reader.sortedKeys, mutations)
        }
    }
}
