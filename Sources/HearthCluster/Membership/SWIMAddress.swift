/// Where a member can be reached: opaque to SWIM, carried in every gossiped record so that a node joining through
/// one seed learns how to reach everybody (the peer transport dials `host:peerPort`, clients use `httpPort`).
public struct SWIMAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var peerPort: UInt16
    public var httpPort: UInt16

    public init(host: String, peerPort: UInt16, httpPort: UInt16) {
        self.host = host
        self.peerPort = peerPort
        self.httpPort = httpPort
    }

    public var description: String { "\(self.host):\(self.peerPort)" }
}
