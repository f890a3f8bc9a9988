public import HearthCore

/// The locations of the data a rule evaluation looked at, so that a write can be made conditional on them: the
/// decision holds only while none of them changes.
///
/// Recorded where a snapshot method reads data (`val()`, `exists()`, `hasChild()`, …), not where `child()` or
/// `parent()` merely move; the recorded path is the node the method read, whose hash covers everything below it.
public struct RuleReads: Sendable, Equatable {
    /// A location read in the current data (`root`, `data`).
    public private(set) var current: Set<Path> = []
    /// A location read in the data as the write would leave it (`newData`).
    public private(set) var new: Set<Path> = []
    /// A location of `newData` whose kind alone was read (`exists()`, `isNumber()`, `isString()`, `isBoolean()`,
    /// `hasChildren()`): an increment's result is a number whatever it started from, so such a read of it depends
    /// on nothing.
    public private(set) var newKinds: Set<Path> = []

    public init() {}

    mutating func record(_ snapshot: RuleSnapshot, below relative: Path = .root, kindOnly: Bool = false) {
        let path = snapshot.path.appending(relative)
        if !snapshot.isNewData {
            self.current.insert(path)
        } else if kindOnly {
            self.newKinds.insert(path)
        } else {
            self.new.insert(path)
        }
    }

    /// Whether nothing was read: a verdict that read nothing depends on nothing, and its write needs no guard.
    public var isEmpty: Bool { self.current.isEmpty && self.new.isEmpty && self.newKinds.isEmpty }

    /// Adds every read of `other`.
    public mutating func formUnion(_ other: RuleReads) {
        self.current.formUnion(other.current)
        self.new.formUnion(other.new)
        self.newKinds.formUnion(other.newKinds)
    }
}

extension RuleReads {
    /// The locations of current data the reads depend on, fewest first: every `current` read, and every `new` read
    /// not wholly given by the write (`determined`: the paths it sets to values that do not depend on what was
    /// there, so reading inside them reads only the write; `kindDetermined`: the paths whose kind the write fixes,
    /// as an increment makes a number), without those inside another one.
    public func dependencies(determined: [Path], kindDetermined: [Path] = []) -> [Path] {
        var paths = self.current
        for path in self.new where !determined.contains(where: { $0.contains(path) }) {
            paths.insert(path)
        }
        for path in self.newKinds
        where !determined.contains(where: { $0.contains(path) }) && !kindDetermined.contains(path) {
            paths.insert(path)
        }
        let sorted = paths.sorted { $0.count < $1.count }
        var kept: [Path] = []
        for path in sorted where !kept.contains(where: { $0.contains(path) }) {
            kept.append(path)
        }
        return kept
    }
}
