public import HearthCore
public import HearthDatabase
public import HearthNode
public import HearthRules
package import HearthSystem
import HearthWire
package import Synchronization

/// Who may read and write what on this node: who a credential belongs to (`Authenticator`), and the security rules
/// of each namespace, which every front end (REST, SSE, the realtime protocol, onDisconnect) asks before it reads
/// or writes.
///
/// Rules live in the database itself, in the `.settings` namespace that no client can address, so that every node
/// of a cluster has the same ones, they survive restarts, and a change reaches every node in commit order. This
/// object listens to that namespace from the moment it is made (seeded from the view atomically with registering),
/// so it always holds the newest committed rules — never older than the data a request is checked against — and
/// tells the front ends of each change. A namespace without stored rules has the node's default: open (as the
/// emulator starts) or closed (a cluster member started without rules).
public final class AccessControl: Sendable {
    /// The namespace the rules are stored in (`/rules/<namespace>`, the rules file's text); not a valid database
    /// name, so no client can read or write it.
    static let settingsNamespace = ".settings"
    static let rulesKey = Key(unchecked: "rules")

    let database: any DatabaseAccess
    /// The single node's write loop, which takes checked writes without a task waiting for each (nil in a cluster).
    let writes: WriteDecider?
    /// Who credentials belong to; its ID token keys are replaced when the key file changes.
    let authenticator: Lock<Authenticator>
    /// The rules of a namespace nobody has given rules to.
    let defaultRules: InstalledRules
    let state = Lock(RulesState())
    /// `RulesState.version` as of the last change, read without the lock by `rules(_:cachedIn:)`: stored in the hold
    /// that changed the rules, after them.
    let rulesVersion = Atomic<UInt64>(0)
    private let credentials = CredentialCache()
    /// Where compare-and-sets from REST and realtime clients contending for one location take turns.
    let conditionalWrites: any ConditionalWriteTurns
    /// Where a request refused because its rules cost more than `RuleBudget` allows is reported.
    private let log: Log?
    /// Requests refused because evaluating their rules ran out of `RuleBudget` (`hearth_rules_too_costly_total`).
    package let tooCostlyRefusals = Atomic(0)

    public convenience init(database: any DatabaseAccess, authenticator: Authenticator, defaultRules: InstalledRules) {
        self.init(
            database: database, authenticator: authenticator, defaultRules: defaultRules,
            conditionalWrites: ConditionalWriteGate())
    }

    /// - Parameters:
    ///   - conditionalWrites: where compare-and-sets take turns (a cluster node's are routed to the leaders of
    ///     their locations' shards).
    ///   - log: where requests refused as too costly to check are reported.
    package init(
        database: any DatabaseAccess, authenticator: Authenticator, defaultRules: InstalledRules,
        conditionalWrites: any ConditionalWriteTurns, log: Log? = nil
    ) {
        self.conditionalWrites = conditionalWrites
        self.log = log
        self.database = database
        self.writes = (database as? Database)?.writes
        self.authenticator = Lock(authenticator)
        self.defaultRules = defaultRules
        let listener = RulesChangeListener(
            namespace: Self.settingsNamespace, path: Path(keys: [Self.rulesKey])
        ) { [weak self] change in
            self?.received(change)
        }
        let root = database.view.addListener(listener)
        self.state.withLock { state in
            state.load(root.node(at: Path(keys: [Self.rulesKey])))
            self.rulesVersion.store(state.version, ordering: .releasing)
        }
    }

    /// Who presents `credential`; see `Authenticator.authenticate(_:now:)`.
    public func authenticate(_ credential: String?) throws(TokenError) -> Authentication {
        let now = Double(self.database.now()) / 1000
        let authenticator = self.authenticator.withLock { $0 }
        guard let credential, !credential.isEmpty else {
            return try authenticator.authenticate(credential, now: now)
        }
        return try self.credentials.authentication(of: credential, now: now) { () throws(TokenError) in
            try authenticator.authenticate(credential, now: now)
        }
    }

    /// Checks Firebase Auth ID tokens against `keys` from now on (the key file changed). Tokens already verified
    /// stay valid until they expire, as they would with Firebase: a key leaves Google's list only after every token
    /// it signed has expired.
    /// - Returns: false when this node does not take ID tokens (there are no keys to replace).
    @discardableResult
    public func replaceIDTokenKeys(_ keys: [String: RSAPublicKey]) -> Bool {
        self.authenticator.withLock { authenticator in
            guard authenticator.idTokens != nil else { return false }
            authenticator.idTokens?.keys = keys
            return true
        }
    }

    /// The rules in force for `namespace`.
    public func rules(_ namespace: String) -> InstalledRules {
        self.state.withLock { $0.rules[namespace] } ?? self.defaultRules
    }

    /// The rules in force for `namespace`, from `cache` while no namespace's rules changed since it was filled
    /// (one atomic load), else taken under the lock as `rules(_:)` takes them and kept in `cache`. A caller that
    /// checks many writes of one namespace (a realtime session's reactor path) keeps a cache, instead of taking the
    /// lock and hashing the namespace for each; a change takes force for every check that starts after it did here.
    func rules(_ namespace: String, cachedIn cache: inout CachedRules?) -> InstalledRules {
        let version = self.rulesVersion.load(ordering: .acquiring)
        if let cached = cache, cached.version == version, cached.namespace == namespace { return cached.rules }
        let taken = self.state.withLock { state in
            CachedRules(
                namespace: namespace, version: state.version, rules: state.rules[namespace] ?? self.defaultRules)
        }
        cache = taken
        return taken.rules
    }

    /// Whether rules were given for `namespace` (otherwise the default applies).
    package func hasStoredRules(_ namespace: String) -> Bool {
        self.state.withLock { $0.rules[namespace] != nil }
    }

    /// The namespaces given rules of their own (which may hold no data yet).
    func namespacesWithRules() -> Set<String> {
        self.state.withLock { Set($0.rules.keys) }
    }

    /// Whether `identity` may read `path` of `namespace` with `query`, against the data as the read view holds it.
    public func mayRead(_ identity: AuthIdentity, namespace: String, path: Path, query: QuerySpec? = nil) -> Bool {
        guard case .user(let auth) = identity else { return true }
        let verdict = self.rules(namespace).document.checkRead(
            at: path, auth: auth, data: self.database.root(namespace), now: Double(self.database.now()),
            query: RuleValue(query: query ?? .default))
        if verdict.isTooCostly { self.refusedAsTooCostly(namespace: namespace, paths: [path], kind: "read") }
        return verdict.isAllowed
    }

    /// Counts and logs a request whose rules ran out of their evaluation budget (it was refused).
    func refusedAsTooCostly(namespace: String, paths: [Path], kind: String) {
        self.tooCostlyRefusals.add(1, ordering: .relaxed)
        self.log?.warning(
            "rules.too_costly",
            [
                "namespace": namespace, "kind": kind, "path": paths.first.map { "\($0)" } ?? "/",
                "paths": "\(paths.count)",
                "action": "simplify the rules at this location (regexes, replace, root.child chains, large val())",
            ])
    }

    /// Whether `identity` may make the write `mutations` against the data `root` gives, as of `now`, and the data
    /// the answer depends on. `root` is called (once) only when the rules read data: a write the rules check without
    /// it (an admin's, or under open rules) does not wait for the read view's lock, which its apply holds.
    /// - Parameter rules: the rules in force for `namespace`, when the caller has them at hand
    ///   (`rules(_:cachedIn:)`); nil to take them now.
    func checkWrite(
        _ identity: AuthIdentity, namespace: String, mutations: [Mutation], root: () -> Node, now: Int64,
        rules: InstalledRules? = nil
    ) -> RuleVerdict {
        guard case .user(let auth) = identity else { return RuleVerdict(isAllowed: true, reads: RuleReads()) }
        let installed = rules ?? self.rules(namespace)
        // Open rules decide without the walk, the data or the paths (an array per write), and read through the
        // rules' reference: a copy of the document retains each of its parts.
        if let verdict = installed.document.grantedWithoutWalk(writes: mutations.count) { return verdict }
        let document = installed.document
        let root = document.writesReadData ? root() : Node.empty
        var after = root
        // Rules that never read `newData` (open rules, say) are not shown it: building it costs a copy of every
        // path the write touches.
        if document.writesReadNewData {
            for mutation in mutations { ShardStateMachine.resolve(mutation, in: after, now: now).apply(to: &after) }
        }
        let verdict = document.checkWrite(
            at: mutations.map(\.path), auth: auth, before: root, after: after, now: Double(now))
        if verdict.isTooCostly {
            self.refusedAsTooCostly(namespace: namespace, paths: mutations.map(\.path), kind: "write")
        }
        return verdict
    }

    /// Whether the rules of `namespace` declare the index `query` orders by at `path` (`.indexOn`); the key and
    /// priority orders need no declaration.
    public func declaresIndex(of query: QuerySpec, namespace: String, path: Path) -> Bool {
        self.rules(namespace).document.declares(query.index, at: path)
    }

    /// The result of `query` over `node`, the data at `path`: from a maintained order when the rules declare its
    /// index, otherwise by a scan.
    public func evaluate(_ query: QuerySpec, namespace: String, path: Path, node: Node) -> Node {
        self.database.view.indexes.evaluate(
            query, namespace: namespace, path: path, node: node,
            isDeclared: self.declaresIndex(of: query, namespace: namespace, path: path))
    }

    static func rulesPath(_ namespace: String) -> Path {
        Path(keys: [Self.rulesKey, Key(unchecked: namespace)])
    }
}
