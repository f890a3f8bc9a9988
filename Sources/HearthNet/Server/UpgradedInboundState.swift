/// What an upgraded connection's handler holds after a read (`UpgradedConnectionHandler.receivedHolding(_:)`): the
/// bytes charged to the client memory budget, and whether a message is in progress, which the minimum data rate
/// watches.
public struct UpgradedInboundState: Sendable, Equatable {
    /// Inbound bytes the handler holds, as `UpgradedConnectionHandler.heldInboundBytes`.
    public var heldBytes: Int
    /// Whether a message has begun and not ended, as `UpgradedConnectionHandler.isMidMessage`.
    public var isMidMessage: Bool

    public init(heldBytes: Int, isMidMessage: Bool) {
        self.heldBytes = heldBytes
        self.isMidMessage = isMidMessage
    }
}
