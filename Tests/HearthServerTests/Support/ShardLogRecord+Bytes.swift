@testable import HearthDatabase

extension ShardLogRecord {
    /// The bytes of one record holding every entry of `entries`, each at its shard's index: the node encodes into its
    /// reused buffer (`encode(together:into:)`); the tests and the simulated log want the bytes alone.
    static func encode(together entries: [(shard: Int, index: UInt64, entry: ShardEntry)]) -> [UInt8] {
        var bytes: [UInt8] = []
        Self.encode(together: entries, into: &bytes)
        return bytes
    }
}
