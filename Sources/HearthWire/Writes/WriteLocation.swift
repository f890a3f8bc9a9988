public import HearthCore

/// Where a client's request points: a validated path, and whether it names that node's priority.
///
/// Firebase lets a write (and a REST read) end its path in `.priority`: `/users/ada/.priority` is the priority of
/// `/users/ada`. `WriteRules.location` parses one from a client's text.
public struct WriteLocation: Sendable, Hashable {
    public var path: Path
    /// True for a path that ended in `.priority`: the request reads or writes the priority of `path`.
    public var targetsPriority: Bool

    public init(path: Path, targetsPriority: Bool = false) {
        self.path = path
        self.targetsPriority = targetsPriority
    }
}
