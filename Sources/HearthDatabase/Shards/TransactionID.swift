/// Names one multi-shard transaction in every participant's log and in its anchor's decision.
///
/// Drawn at random by the coordinator (64 bits: two transactions pending at once never collide in practice), so
/// no counter has to survive a restart and nodes need not agree on one.
public struct TransactionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A fresh identifier from `random`.
    public static func random(using random: inout some RandomNumberGenerator) -> TransactionID {
        TransactionID(rawValue: random.next())
    }

    public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "txn-\(String(self.rawValue, radix: 16))" }
}
