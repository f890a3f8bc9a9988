public import HearthCore

/// One change a client asked for, before the server resolves its server values.
///
/// Every Firebase write reduces to a list of these: `set` and `remove` are one `.set`, a multi-path update is one
/// `.set` per key, and writing `…/.priority` is a `.setPriority`. `WriteRules` builds them from what a client sent.
public enum Mutation: Sendable {
    case set(Path, WriteValue)
    case setPriority(Path, WriteValue)

    public var path: Path {
        switch self {
        case .set(let path, _), .setPriority(let path, _): path
        }
    }
}
