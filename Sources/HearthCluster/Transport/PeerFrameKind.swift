/// What a peer frame carries, by its kind byte (0 is the transport's own hello). One list, so two subsystems can
/// never claim the same byte.
package enum PeerFrameKind: UInt8, Sendable, CaseIterable {
    /// A SWIM membership message (`SWIMMessage`).
    case membership = 1
    /// A Raft message (`RaftMessage`, which names its group).
    case raft = 2
}
