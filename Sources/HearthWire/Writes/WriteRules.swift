public import HearthCore

/// Firebase's rules for what a client may write, in one place for every front end (REST, the realtime protocol,
/// and later the Swift client, which checks them before sending).
///
/// Each function turns what a client sent into `Mutation`s, or throws a `WriteRuleError` that the front end words
/// in its own format. The rules (reference §4.4, §5, §6):
/// - a path is split on `/` with empty segments dropped; every key must pass `Key(validating:)`, and the whole path
///   must fit `Path.maximumDepth` keys and `Path.maximumByteLength` bytes; only a write (or a REST read) may end in
///   `.priority`;
/// - a value must follow `WriteValue`'s data rules (keys, depth counted from the root, server values);
/// - a priority must be a number, a string, null or a server value;
/// - a multi-path update applies its keys in sorted order, and no two of its paths may overlap.
public enum WriteRules {
    /// Parses a request's path, relative to `base`.
    /// - Parameters:
    ///   - text: the path as the client sent it: `/a/b`, `a/b` or `/` (empty segments are dropped).
    ///   - allowingPriority: whether `.priority` may end the path (writes and REST reads).
    /// - Throws: `WriteRuleError.invalidPath` naming `text` and the broken rule.
    /// - Complexity: O(n) in the length of `text`.
    public static func location(_ text: String, below base: Path = .root, allowingPriority: Bool) throws(WriteRuleError)
        -> WriteLocation
    {
        try Self.location(text, below: base, allowingPriority: allowingPriority) { .invalidPath(text, reason: $0) }
    }

    /// A set of `json` at `location` (a delete is a set of `null`).
    /// - Throws: `WriteRuleError` `.invalidValue` or `.invalidPriority`.
    /// - Complexity: O(n) in the size of the value.
    public static func set(_ json: JSONValue, at location: WriteLocation) throws(WriteRuleError) -> Mutation {
        let value: WriteValue
        do {
            value = try WriteValue(json: json, depth: location.path.count)
        } catch {
            throw .invalidValue(location.path, reason: "\(error)")
        }
        return try Self.mutation(value, at: location)
    }

    /// A set of the JSON document `body` at `location`, parsed straight into a tree. A body without server values
    /// keeps its bytes as `WriteValue.sourceJSON`, so the log can store them as sent.
    /// - Throws: `WriteRuleError` `.invalidJSON` when `body` is not JSON, `.invalidValue` or `.invalidPriority`.
    /// - Complexity: O(n) in the length of `body`.
    public static func set(body: [UInt8], at location: WriteLocation) throws(WriteRuleError) -> Mutation {
        var value: WriteValue
        do {
            value = try WriteValue.parseWrite(body, depth: location.path.count)
        } catch let error as JSONError {
            throw .invalidJSON(reason: error.message)
        } catch {
            throw .invalidValue(location.path, reason: "\(error)")
        }
        if !value.hasServerValues { value.sourceJSON = body }
        return try Self.mutation(value, at: location)
    }

    /// A multi-path update at `base`: each member's key is a path relative to `base` (it may contain `/` and end
    /// in `/.priority`) and its value is set there.
    ///
    /// The mutations come in the order of the sorted keys (`members.keys.sorted()`, UTF-8 byte order: keys that
    /// differ only in their Unicode normalisation are two paths), so a caller can pair them.
    /// - Throws: `WriteRuleError` `.invalidUpdateKey`, `.invalidValue` or `.invalidPriority` for the first bad
    ///   member in that order, then `.overlappingPaths` when one path equals or lies inside another.
    /// - Complexity: O(n + k log k) for k members of total size n.
    public static func update(_ members: [JSONKey: JSONValue], at base: Path) throws(WriteRuleError) -> [Mutation] {
        var mutations: [Mutation] = []
        mutations.reserveCapacity(members.count)
        for (key, json) in members.sorted(by: { $0.key < $1.key }) {
            let location = try Self.location(key.string, below: base, allowingPriority: true) {
                .invalidUpdateKey(key.string, reason: $0)
            }
            mutations.append(try Self.set(json, at: location))
        }
        try Self.checkOverlaps(mutations)
        return mutations
    }

    /// Up to this many paths are checked for overlaps pair by pair, without sorting a copy: a few comparisons cost
    /// less than the copy (most updates, such as a star's four paths, are this small).
    static let pairwiseOverlapLimit = 8

    /// The update rule that no path of one update equals or lies inside another.
    /// - Throws: `WriteRuleError.overlappingPaths` naming the first such pair in path order.
    /// - Complexity: O(k log k) for k mutations.
    static func checkOverlaps(_ mutations: [Mutation]) throws(WriteRuleError) {
        // The paths first: reading one from a mutation copies (retains) its whole value.
        try Self.checkOverlaps(paths: mutations.map { $0.path })
    }

    /// `checkOverlaps(_:)` over the mutations' paths, for a caller that has them at hand as it makes the mutations.
    static func checkOverlaps(paths: [Path]) throws(WriteRuleError) {
        if paths.count <= Self.pairwiseOverlapLimit {
            let overlaps = paths.withUnsafeBufferPointer { paths in
                for first in paths.indices {
                    for second in paths.indices where second != first {
                        let contains = paths[first].keys.withUnsafeBufferPointer { outer in
                            paths[second].keys.withUnsafeBufferPointer { inner in Self.contains(outer, inner) }
                        }
                        if contains { return true }
                    }
                }
                return false
            }
            guard overlaps else { return }
        }
        let sorted = paths.sorted()
        for (first, second) in zip(sorted, sorted.dropFirst()) where first.contains(second) {
            throw .overlappingPaths(first, second)
        }
    }

    /// `Path.contains` over the two paths' keys where they lie: the pairwise check compares every pair of an
    /// update's paths, and comparing `Path`s copied each path it compared (a retain and a release apiece). Only a
    /// path no deeper than another can contain it, so most pairs are told apart by their depths alone; the rest
    /// deepest key first, where sibling paths differ.
    private static func contains(_ outer: UnsafeBufferPointer<Key>, _ inner: UnsafeBufferPointer<Key>) -> Bool {
        guard outer.count <= inner.count else { return false }
        var index = outer.count
        while index > 0 {
            index -= 1
            if outer[index] != inner[index] { return false }
        }
        return true
    }

    private static func location(
        _ text: String, below base: Path, allowingPriority: Bool, failure: (String) -> WriteRuleError
    ) throws(WriteRuleError) -> WriteLocation {
        if let location = Self.validLocation(text, below: base, allowingPriority: allowingPriority) { return location }
        // Split on the byte `/` (never part of a multi-byte character): splitting characters costs several times more.
        var segments = text.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
        let targetsPriority = allowingPriority && segments.last == ".priority"
        if targetsPriority { segments.removeLast() }
        do {
            var keys = base.keys
            for segment in segments { keys.append(try Key(validating: segment)) }
            try Path.checkLimits(keys)
            return WriteLocation(path: Path(keys: keys), targetsPriority: targetsPriority)
        } catch {
            throw failure(error.message)
        }
    }

    /// The location `text` names when it breaks no rule, found in one pass over its bytes (every write parses a
    /// path per member, and most paths are valid); nil when a rule is broken, for `location` to say which.
    private static func validLocation(_ text: String, below base: Path, allowingPriority: Bool) -> WriteLocation? {
        var text = text
        return text.withUTF8 { Self.validLocation($0, below: base, allowingPriority: allowingPriority) }
    }

    /// The location the UTF-8 `bytes` name below `base` when they break no rule (`location`'s rules); nil when one
    /// is broken. A reader that has a path's bytes (an update's member key) parses it here without a `String`.
    /// - Complexity: O(n) in the length of `bytes`.
    package static func validLocation(_ bytes: UnsafeBufferPointer<UInt8>, below base: Path, allowingPriority: Bool)
        -> WriteLocation?
    {
        Self.validLocationAndForm(bytes, below: base, allowingPriority: allowingPriority)?.location
    }

    /// `validLocation(_:below:allowingPriority:)`, and whether `bytes` name the path plainly: the keys they add to
    /// `base` joined by single `/`s, none at either end, and no `.priority` (`plainlyContains`).
    /// - Complexity: O(n) in the length of `bytes`.
    static func validLocationAndForm(_ bytes: UnsafeBufferPointer<UInt8>, below base: Path, allowingPriority: Bool)
        -> (location: WriteLocation, isPlain: Bool)?
    {
        // Most paths hold only key bytes and slashes (one pass finds out, and counts the slashes): then every segment
        // is a key as long as the path's limits hold, none is `.priority`, and the keys need no check of their own.
        let plainSeparators = Key.separators(inKeyBytes: bytes)
        let checksKeys = plainSeparators == nil
        let baseCount = base.count
        let separators = plainSeparators ?? bytes.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
        // Text of slashes alone (the root) adds no key and allocates nothing.
        guard separators < bytes.count else {
            return Path.fits(depth: baseCount, keyBytes: Self.keyBytes(base))
                ? (WriteLocation(path: base), false) : nil
        }
        // The keys go into an array with room for as many as the text can add, never more than a path may hold (a
        // message's worth of slashes makes room for no more than that). Reserved, not made with
        // `Array(unsafeUninitializedCapacity:)`: that allocates through the standard library's unspecialised code,
        // which looks up the array's type metadata in the runtime's cache on every call (a sixth of a star's path
        // parsing), where reserving is specialised for `Key` and reads it once.
        var keys: [Key] = []
        keys.reserveCapacity(min(baseCount + separators + 1, Path.maximumDepth + 1))
        if baseCount > 0 { keys.append(contentsOf: base.keys) }
        // The limits are counted as the keys are split (`Path.fits`): a path past them is refused at the first key
        // that takes it there, not split to its end first. Both counts only grow, so the answer is the same (and a
        // key too long for a key is too long for a path).
        var keyBytes = baseCount > 0 ? Self.keyBytes(base) : 0
        // A `.priority` segment is taken only as the last one; anywhere else it is an invalid key.
        var targetsPriority = false
        var segments = PathSegments(bytes: bytes)
        while let segment = segments.next() {
            let key = UnsafeBufferPointer(rebasing: bytes[segment])
            if checksKeys {
                guard !targetsPriority else { return nil }
                if allowingPriority && Self.isPriority(key) {
                    targetsPriority = true
                    continue
                }
                guard Key.isValid(key) else { return nil }
            }
            keyBytes += key.count
            guard Path.fits(depth: keys.count + 1, keyBytes: keyBytes) else { return nil }
            // The bytes are valid UTF-8: a short ASCII key is made from them as they are, not checked again.
            keys.append(Key.smallASCII(key) ?? Key(unchecked: String(decoding: key, as: UTF8.self)))
        }
        guard Path.fits(depth: keys.count, keyBytes: keyBytes) else { return nil }
        let isPlain = !checksKeys && keys.count - baseCount == separators + 1
        return (WriteLocation(path: Path(keys: keys), targetsPriority: targetsPriority), isPlain)
    }

    /// The UTF-8 bytes of a path's keys together.
    private static func keyBytes(_ path: Path) -> Int {
        path.keys.reduce(0) { $0 + $1.string.utf8.count }
    }

    /// The non-empty segments of a path's UTF-8 bytes, in order, as ranges of them: a path is split on the byte `/`
    /// (never part of a multi-byte character) with empty segments dropped, as Firebase does.
    struct PathSegments: IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where the next segment may start.
        var start = 0

        mutating func next() -> Range<Int>? {
            while self.start < self.bytes.count {
                // Eight bytes at a time while eight are left (a key of a star's path is five to nine bytes).
                let end = ByteWords.firstIndex(of: UInt8(ascii: "/"), in: self.bytes, from: self.start)
                let segment = self.start..<end
                self.start = end + 1
                if !segment.isEmpty { return segment }
            }
            return nil
        }
    }

    /// Whether a segment is `.priority` (the first byte first: most keys are told apart there).
    static func isPriority(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.first == UInt8(ascii: ".") && key.count == 9 && key.elementsEqual(".priority".utf8)
    }

    /// Whether the path the bytes `outer` name equals or lies above the one `inner` names, both relative to one base
    /// and both accepted by `validLocation` with `.priority` allowed (so it can only be last, where it names its
    /// node): the overlap rule of an update (`checkOverlaps`) over its members' keys as read, comparing their
    /// segments' bytes where they lie, with no `Path` made or copied.
    static func segmentsContain(_ outer: UnsafeBufferPointer<UInt8>, _ inner: UnsafeBufferPointer<UInt8>) -> Bool {
        var outerSegments = PathSegments(bytes: outer)
        var innerSegments = PathSegments(bytes: inner)
        while let outerSegment = outerSegments.next() {
            let outerKey = UnsafeBufferPointer(rebasing: outer[outerSegment])
            if Self.isPriority(outerKey) { return true }
            guard let innerSegment = innerSegments.next() else { return false }
            let innerKey = UnsafeBufferPointer(rebasing: inner[innerSegment])
            guard !Self.isPriority(innerKey), Key.bytesEqual(outerKey, innerKey) else { return false }
        }
        return true
    }

    /// `segmentsContain(_:_:)` of two keys that name their paths plainly (`validLocationAndForm`): the outer text
    /// begins the inner one, and the inner one ends or goes on with a `/` there. One comparison of bytes, where
    /// walking the segments of an update's every pair of keys cost more than reading the update's values.
    static func plainlyContains(_ outer: UnsafeBufferPointer<UInt8>, _ inner: UnsafeBufferPointer<UInt8>) -> Bool {
        guard outer.count <= inner.count else { return false }
        guard outer.count == inner.count || inner[outer.count] == UInt8(ascii: "/") else { return false }
        return Key.bytesEqual(outer, UnsafeBufferPointer(rebasing: inner[..<outer.count]))
    }

    /// A value becomes a set, or a priority set when the location names the priority.
    static func mutation(_ value: consuming WriteValue, at location: consuming WriteLocation) throws(WriteRuleError)
        -> Mutation
    {
        guard location.targetsPriority else { return .set(location.path, value) }
        switch value.node.leafValue {
        case .int?, .double?, .string?: return .setPriority(location.path, value)
        case nil where value.node.isEmpty || value.hasServerValues: return .setPriority(location.path, value)
        default: throw .invalidPriority(location.path)
        }
    }
}
