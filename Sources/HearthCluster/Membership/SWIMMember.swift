/// One member's record as every node keeps and gossips it: who it is, where it is, which run of the process this
/// is (`generation`), how many times it refuted suspicion (`incarnation`) and how it is seen (`status`).
///
/// The generation is chosen once at process start and only grows (the shell uses the wall-clock milliseconds at
/// start, so a restarted node with the same configured name supersedes its own dead record). The incarnation starts
/// at 0 in every generation and only the member itself raises it, to refute a suspicion.
public struct SWIMMember: Sendable, Hashable, CustomStringConvertible {
    public var id: NodeID
    public var address: SWIMAddress
    public var generation: UInt64
    public var incarnation: UInt64
    public var status: SWIMStatus

    public init(
        id: NodeID,
        address: SWIMAddress,
        generation: UInt64,
        incarnation: UInt64 = 0,
        status: SWIMStatus = .alive
    ) {
        self.id = id
        self.address = address
        self.generation = generation
        self.incarnation = incarnation
        self.status = status
    }

    public var description: String {
        "\(self.id)@\(self.address) gen \(self.generation) inc \(self.incarnation) \(self.status)"
    }
}
