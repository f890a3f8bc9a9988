/// One end of a query's range: Firebase's `startAt`/`startAfter` or `endAt`/`endBefore`, with an optional key name.
///
/// A bound is a "post" `(value, name)` compared with each child's `(index value, key)`. `value` is the index value
/// (`nil` is JSON `null`); `name` breaks ties between children with that value and may be one of the sentinels
/// `Key.minName` or `Key.maxName`. A missing start name means `[MIN_NAME]` and a missing end name `[MAX_NAME]`. Under
/// the key index the post is just the key in `value` (a string) and `name` is ignored.
///
/// Examples for a non-key index: `startAfter(v)` is `(v, [MAX_NAME], exclusive)`, `endBefore(v)` is
/// `(v, [MIN_NAME], exclusive)`, `equalTo(v, k)` is `(v, k, inclusive)` at both ends.
public struct QueryBound: Sendable, Hashable {
    /// The index value of the post; `nil` is `null`. Never an object.
    public var value: LeafValue?
    /// The key name of the post, or `nil` for the default sentinel of its end.
    public var name: Key?
    /// True for `startAt`/`endAt`, false for `startAfter`/`endBefore`.
    public var inclusive: Bool

    public init(_ value: LeafValue?, name: Key? = nil, inclusive: Bool = true) {
        self.value = value
        self.name = name
        self.inclusive = inclusive
    }
}

/// A bound's key name with the sentinels made explicit, so comparisons never mistake `[MIN_NAME]` for a real key.
enum BoundName: Sendable, Hashable {
    case min
    case key(Key)
    case max

    /// Reads a name, mapping `[MIN_NAME]` to `.min` and both `[MAX_NAME]` and Android's `[MAX_KEY]` to `.max`.
    init(_ key: Key) {
        switch key.string {
        case Key.minName.string: self = .min
        case Key.maxName.string, BoundName.androidMaxName: self = .max
        default: self = .key(key)
        }
    }

    /// Android's spelling of the largest name.
    static let androidMaxName = "[MAX_KEY]"

    /// True when this name is one of the sentinels, so no child can ever equal it.
    var isSentinel: Bool {
        if case .key = self { return false }
        return true
    }

    /// The name as a `Key`, using the canonical sentinel spellings.
    var key: Key {
        switch self {
        case .min: Key.minName
        case .key(let key): key
        case .max: Key.maxName
        }
    }

    /// -1, 0 or 1 comparing a real child key with this name (sentinels are below and above every key).
    /// - Complexity: O(length of the keys).
    func compare(childKey: Key) -> Int {
        switch self {
        case .min: return 1
        case .max: return -1
        case .key(let name):
            if childKey < name { return -1 }
            return name < childKey ? 1 : 0
        }
    }
}
