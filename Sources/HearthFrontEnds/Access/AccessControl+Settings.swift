import HearthCore
import HearthDatabase
import HearthNode
import HearthRules
import HearthSystem
import HearthWire
import Synchronization

/// Changing a namespace's rules (`PUT /.settings/rules.json`, `hearth serve --rules`), and telling the front ends,
/// so that they cancel the listens the new rules no longer allow.
extension AccessControl {
    /// Parses `text` and, when it is a valid rules file, stores it as `namespace`'s rules (durably, like any
    /// write; every node of a cluster sees it). A rules file with a mistake is refused whole, and the rules in
    /// force stay.
    /// - Throws: `RulesError` for a mistake; what a write throws when the node cannot make it now.
    public func install(_ text: String, namespace: String) async throws {
        let installed = try InstalledRules(text: text)
        let mutation = Mutation.set(Self.rulesPath(namespace), WriteValue(node: Node(.string(installed.text))))
        _ = try await self.database.write(namespace: Self.settingsNamespace, mutations: [mutation])
    }

    /// Calls `handler` with the namespace whose rules changed, after every change, once the new rules are in
    /// force here; on the log's commit thread, so it must not block.
    func watchRules(_ handler: @escaping @Sendable (String) -> Void) {
        self.state.withLock { $0.handlers.append(handler) }
    }

    /// A committed change under `/rules`: the new rules of each namespace it touches take force, then the
    /// watchers hear of it.
    func received(_ change: CommittedChange) {
        let rules = change.newRoot.node(at: Path(keys: [Self.rulesKey]))
        let (changed, handlers) = self.state.withLock { state -> (Set<String>, [@Sendable (String) -> Void]) in
            var changed = Set<String>()
            for mutation in change.mutations {
                if mutation.path.count >= 2 {
                    changed.insert(mutation.path.keys[1].string)
                } else {
                    changed.formUnion(state.rules.keys)
                    changed.formUnion(rules.children.map { $0.key.string })
                }
            }
            for namespace in changed {
                state.update(namespace, rules.node(at: Path(keys: [Key(unchecked: namespace)])))
            }
            // After the rules, in the same hold: a cache that sees this version sees them (`rules(_:cachedIn:)`).
            self.rulesVersion.store(state.version, ordering: .releasing)
            return (changed, state.handlers)
        }
        for namespace in changed {
            self.database.view.indexes.drop(namespace: namespace)
            for handler in handlers { handler(namespace) }
        }
    }
}

/// The stored rules as compiled, by namespace, and who wants to hear of changes.
struct RulesState: Sendable {
    var rules: [String: InstalledRules] = [:]
    var handlers: [@Sendable (String) -> Void] = []
    /// Counts the changes to `rules`, so a cache of one namespace's rules (`CachedRules`) can tell it is still
    /// current without the lock.
    var version: UInt64 = 0

    /// Loads every namespace's rules from the `/rules` node of the settings.
    mutating func load(_ node: Node) {
        for (key, text) in node.children { self.update(key.string, text) }
    }

    /// Takes `namespace`'s stored rules (a string leaf), or drops them when the node is empty.
    mutating func update(_ namespace: String, _ node: Node) {
        guard case .string(let text)? = node.leafValue else {
            if self.rules.removeValue(forKey: namespace) != nil { self.version += 1 }
            return
        }
        if self.rules[namespace]?.text != text {
            self.rules[namespace] = InstalledRules(stored: text)
            self.version += 1
        }
    }
}

/// Hears committed changes to the stored rules.
final class RulesChangeListener: ChangeListener {
    let namespace: String
    let path: Path
    private let onChange: @Sendable (CommittedChange) -> Void

    init(namespace: String, path: Path, onChange: @escaping @Sendable (CommittedChange) -> Void) {
        self.namespace = namespace
        self.path = path
        self.onChange = onChange
    }

    func changed(_ change: CommittedChange) {
        self.onChange(change)
    }
}
