public import HearthCore

/// A put-shaped or merge-shaped request as the write it asks for, under the shared write rules.
extension WireRequest {
    /// The mutations of a put-shaped (`p`, `o`) or merge-shaped (`m`, `om`) request, with the path it names
    /// (without a trailing `.priority`).
    /// - Throws: `WireProtocolError` `.invalidData` wording the broken write rule.
    /// - Precondition: the request is a put, merge, onDisconnect put or onDisconnect merge.
    public func mutations() throws(WireProtocolError) -> (path: Path, mutations: [Mutation]) {
        do {
            switch self {
            case .put(let text, let data, _, _), .onDisconnectPut(let text, let data):
                let location = try WriteRules.location(text, allowingPriority: true)
                return (location.path, [try WriteRules.set(data, at: location)])
            case .merge(let text, let members, _), .onDisconnectMerge(let text, let members):
                let base = try WriteRules.location(text, allowingPriority: false).path
                return (base, try WriteRules.update(members, at: base))
            default:
                preconditionFailure("Only puts and merges carry mutations, not \(self.action): \(self)")
            }
        } catch {
            throw WireProtocolError(error)
        }
    }
}
