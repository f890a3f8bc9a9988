public import HearthCore

/// REST's `writeSizeLimit` (reference §10): how much one write may send plus replace, by Firebase's names.
///
/// A write passes when the bytes sent plus the data at the paths it replaces fit the named budget; the replaced
/// data is measured only as far as the budget, so checking a huge subtree stays cheap.
public struct WriteSizeLimit: Sendable, Hashable {
    /// The name the client gave: `tiny`, `small`, `medium`, `large` or `unlimited`.
    public let name: String
    /// The budget in bytes; `nil` for `unlimited`.
    public let bytes: Int?

    /// The budgets Firebase documents for each name.
    public static let budgets = ["tiny": 1 << 20, "small": 10 << 20, "medium": 30 << 20, "large": 60 << 20]

    /// - Throws: `WriteRuleError.unknownSizeLimit` for any other name.
    public init(name: String) throws(WriteRuleError) {
        self.name = name
        if name == "unlimited" {
            self.bytes = nil
            return
        }
        guard let bytes = Self.budgets[name] else { throw .unknownSizeLimit(name) }
        self.bytes = bytes
    }

    /// Checks a write of `bodyBytes` that replaces `replaced` (the current nodes at the paths it writes).
    /// - Throws: `WriteRuleError.sizeLimitExceeded` when the total passes the budget.
    /// - Complexity: O(min(n, budget)) over the replaced nodes' sizes.
    public func check(bodyBytes: Int, replacing replaced: [Node]) throws(WriteRuleError) {
        guard let limit = self.bytes else { return }
        var total = bodyBytes
        for node in replaced where total <= limit {
            total += node.estimatedBytes(upTo: limit - total + 1)
        }
        if total > limit { throw .sizeLimitExceeded(self.name) }
    }
}
