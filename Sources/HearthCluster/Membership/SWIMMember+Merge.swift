extension SWIMMember {
    /// The record to keep when `incoming` (gossip about the same member) meets this one, or nil when `incoming`
    /// tells nothing new.
    ///
    /// A newer generation always wins and an older one never does. Within a generation, `dead` and `left` are
    /// final; `alive` needs a higher incarnation; `suspect` wins over `alive` at the same or a lower incarnation
    /// and over `suspect` at a lower one. Two suspicions at the same incarnation combine their suspecters (kept
    /// sorted, at most `maxSuspecters`), which is how Lifeguard counts independent suspicions.
    public func merged(with incoming: SWIMMember, maxSuspecters: Int) -> SWIMMember? {
        precondition(incoming.id == self.id, "merging gossip about \(incoming.id) into the record of \(self.id)")
        if incoming.generation != self.generation {
            return incoming.generation > self.generation ? incoming : nil
        }
        switch (self.status, incoming.status) {
        case (.dead, _), (.left, _):
            return nil
        case (_, .dead), (_, .left):
            return incoming
        case (_, .alive):
            return incoming.incarnation > self.incarnation ? incoming : nil
        case (.alive, .suspect):
            return incoming.incarnation >= self.incarnation ? incoming : nil
        case (.suspect(let known), .suspect(let reported)):
            if incoming.incarnation != self.incarnation {
                return incoming.incarnation > self.incarnation ? incoming : nil
            }
            let combined = Self.combine(known, reported, limit: maxSuspecters)
            guard combined != known else { return nil }
            var merged = self
            merged.status = .suspect(suspectedBy: combined)
            return merged
        }
    }

    /// `known` plus members of `reported` it lacks, sorted, without exceeding `limit` (those already known stay).
    static func combine(_ known: [NodeID], _ reported: [NodeID], limit: Int) -> [NodeID] {
        var result = Set(known)
        for id in reported.sorted() where result.count < limit {
            result.insert(id)
        }
        return result.sorted()
    }
}
