import HearthCore
import HearthWire

/// The paths held in one shard by prepared transactions (their mutations) and by coordinators' read locks, indexed
/// by path, so that deciding whether a command is blocked costs O(depth) per path it touches instead of a scan over
/// every transaction in flight (a hot post has as many prepared stars as it has clients starring it).
///
/// The one place of the rule: a held path blocks a path that equals it, lies above or lies below it, except that
/// bare increments (`Mutation.commutingIncrementDelta`: all but huge ones) of one counter never block each other; a read blocks and is blocked
/// by anything overlapping. A value: copying a shard state machine copies it.
struct ShardLockTable: Sendable {
    /// How a path is held.
    enum Hold: Sendable {
        /// A prepared mutation other than a bare increment.
        case write
        /// A prepared bare increment that commutes (`Mutation.commutingIncrementDelta`).
        case increment
        /// A coordinator's read lock.
        case read
    }

    /// Who holds paths: a transaction's prepared part, or its read locks (released separately).
    struct Holder: Hashable, Sendable {
        var transaction: TransactionID
        var isRead: Bool
    }

    /// How many holds of each kind one node of the trie carries.
    struct Counts: Sendable {
        var write = 0
        var increment = 0
        var read = 0

        var total: Int { self.write + self.increment + self.read }

        mutating func add(_ hold: Hold, _ amount: Int) {
            switch hold {
            case .write: self.write += amount
            case .increment: self.increment += amount
            case .read: self.read += amount
            }
        }

        static func - (lhs: Counts, rhs: Counts) -> Counts {
            Counts(write: lhs.write - rhs.write, increment: lhs.increment - rhs.increment, read: lhs.read - rhs.read)
        }
    }

    /// One path of the trie: the holds exactly here, by transaction and in total, and how many lie below.
    struct Trie: Sendable {
        var here: [TransactionID: Counts] = [:]
        var hereTotal = Counts()
        var below = 0
        var children: [Key: Trie] = [:]

        var isEmpty: Bool { self.hereTotal.total == 0 && self.below == 0 }
    }

    private var roots: [String: Trie] = [:]
    private var holds: [Holder: (namespace: String, paths: [(Path, Hold)])] = [:]

    init() {}

    /// True when nothing is held.
    var isEmpty: Bool { self.holds.isEmpty }

    /// Records that `holder` holds `paths` in `namespace`, replacing what it held before.
    mutating func hold(_ holder: Holder, namespace: String, paths: [(Path, Hold)]) {
        self.release(holder)
        guard !paths.isEmpty else { return }
        self.holds[holder] = (namespace, paths)
        for (path, hold) in paths {
            Self.change(&self.roots[namespace, default: Trie()], at: path.keys[...], by: holder.transaction, hold, 1)
        }
    }

    /// Forgets everything `holder` holds.
    mutating func release(_ holder: Holder) {
        guard let held = self.holds.removeValue(forKey: holder) else { return }
        for (path, hold) in held.paths {
            Self.change(
                &self.roots[held.namespace, default: Trie()], at: path.keys[...], by: holder.transaction, hold, -1)
        }
        if self.roots[held.namespace]?.isEmpty ?? false { self.roots[held.namespace] = nil }
    }

    /// True when a holder other than `except` holds a path that `mutations` would conflict with or that overlaps
    /// one of `reads`.
    func blocks(namespace: String, mutations: [Mutation], reads: [Path], except: TransactionID?) -> Bool {
        guard let root = self.roots[namespace] else { return false }
        for mutation in mutations {
            let hold: Hold = mutation.commutingIncrementDelta == nil ? .write : .increment
            if self.blocks(root, namespace: namespace, path: mutation.path, as: hold, except: except) { return true }
        }
        return reads.contains { self.blocks(root, namespace: namespace, path: $0, as: .read, except: except) }
    }

    private func blocks(_ root: Trie, namespace: String, path: Path, as hold: Hold, except: TransactionID?) -> Bool {
        var node = root
        for key in path.keys {
            if Self.others(in: node, except: except).total > 0 { return true }
            guard let child = node.children[key] else { return false }
            node = child
        }
        let others = Self.others(in: node, except: except)
        let conflicting = hold == .increment ? others.write + others.read : others.total
        if conflicting > 0 { return true }
        return node.below - self.heldBelow(path, namespace: namespace, by: except) > 0
    }

    /// The holds at `node` of every transaction but `except`.
    private static func others(in node: Trie, except: TransactionID?) -> Counts {
        guard let except, let own = node.here[except] else { return node.hereTotal }
        return node.hereTotal - own
    }

    /// How many of `transaction`'s holds lie strictly below `path`.
    private func heldBelow(_ path: Path, namespace: String, by transaction: TransactionID?) -> Int {
        guard let transaction else { return 0 }
        var count = 0
        for isRead in [false, true] {
            guard let held = self.holds[Holder(transaction: transaction, isRead: isRead)], held.namespace == namespace
            else { continue }
            count += held.paths.filter { $0.0.count > path.count && path.contains($0.0) }.count
        }
        return count
    }

    /// Adds `amount` holds of `hold` by `transaction` at `keys` below `node`, pruning nodes left empty.
    private static func change(
        _ node: inout Trie, at keys: ArraySlice<Key>, by transaction: TransactionID, _ hold: Hold, _ amount: Int
    ) {
        guard let first = keys.first else {
            node.hereTotal.add(hold, amount)
            var own = node.here[transaction] ?? Counts()
            own.add(hold, amount)
            node.here[transaction] = own.total == 0 ? nil : own
            return
        }
        node.below += amount
        Self.change(&node.children[first, default: Trie()], at: keys.dropFirst(), by: transaction, hold, amount)
        if node.children[first]?.isEmpty ?? false { node.children[first] = nil }
    }
}
