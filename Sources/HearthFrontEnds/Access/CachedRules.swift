import HearthNode

/// One namespace's rules as a caller last took them (`AccessControl.rules(_:cachedIn:)`), and the version of the
/// node's rules they were taken at: while no rules changed since (`RulesState.version`), they are still the rules
/// in force, and the caller reads them without the lock or a lookup of the namespace.
struct CachedRules: Sendable {
    /// The namespace whose rules these are.
    var namespace: String
    /// `RulesState.version` when they were taken.
    var version: UInt64
    var rules: InstalledRules
}
