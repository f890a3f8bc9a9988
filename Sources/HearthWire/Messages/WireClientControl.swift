/// A control message a client sends (reference §1.4): the ping, and the two steps of a transport upgrade.
///
/// Kept as the raw type string so a type this server does not know still decodes (the server ignores it, as
/// Firebase does), while the known ones are named constants.
public struct WireClientControl: Sendable, Hashable, CustomStringConvertible {
    /// The control type `t`.
    public var type: String

    public init(type: String) {
        self.type = type
    }

    public var description: String { self.type }

    /// `p`: the client asks for a pong (`WireServerMessage.pong`) to check the connection is healthy.
    public static let ping = WireClientControl(type: "p")
    /// `n`: end of transmission on the old transport of an upgrade (long poll to WebSocket).
    public static let endOfTransmission = WireClientControl(type: "n")
    /// `a`: the switch acknowledgement a client sends on the new transport of an upgrade.
    public static let switchAck = WireClientControl(type: "a")
}
