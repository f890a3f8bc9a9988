/// The rendezvous (highest-random-weight) score of a node for a shard: FNV-1a over the node's name, a purpose byte
/// and the shard number, finished with the SplitMix64 mixer so that nearby shard numbers get unrelated weights.
///
/// Stable across processes, runs and platforms (unlike Swift's per-process seeded `Hasher`), so every node computes
/// the same placement from the same configuration.
enum RendezvousWeight {
    /// What the weight ranks: replicas and preferred leaders use independent weights.
    enum Purpose: UInt8 {
        case replica = 0
        case leader = 1
    }

    static func of(_ node: NodeID, shard: Int, purpose: Purpose = .replica) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for byte in node.name.utf8 { mix(byte) }
        mix(0)
        mix(purpose.rawValue)
        let shardNumber = UInt32(truncatingIfNeeded: shard)
        for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8(truncatingIfNeeded: shardNumber >> UInt32(shift))) }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
