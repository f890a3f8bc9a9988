import HearthCluster

/// A small text DSL for membership tables in tests: entries separated by `;` or new lines, each
/// `name status[@incarnation] [gen=G] [by=a,b]`, e.g. `"n2 alive@1; n3 suspect@2 by=n1,n4; n4 dead gen=7"`.
/// Generation defaults to 1 and incarnation to 0; every member's address is derived from its name.
enum SWIMTable {
    static func parse(_ text: String) -> [SWIMMember] {
        text.split(whereSeparator: { $0 == ";" || $0 == "\n" }).compactMap { entry in
            let words = entry.split(separator: " ").map(String.init)
            guard let name = words.first, words.count >= 2 else { return nil }
            let statusWord = words[1].split(separator: "@").map(String.init)
            var generation: UInt64 = 1
            var suspectedBy: [NodeID] = []
            for word in words.dropFirst(2) {
                if word.hasPrefix("gen=") { generation = UInt64(word.dropFirst(4)) ?? 1 }
                if word.hasPrefix("by=") {
                    suspectedBy = word.dropFirst(3).split(separator: ",").map { NodeID(String($0)) }
                }
            }
            let status: SWIMStatus =
                switch statusWord[0] {
                case "suspect": .suspect(suspectedBy: suspectedBy)
                case "dead": .dead
                case "left": .left
                default: .alive
                }
            return SWIMMember(
                id: NodeID(name),
                address: self.address(NodeID(name)),
                generation: generation,
                incarnation: statusWord.count > 1 ? UInt64(statusWord[1]) ?? 0 : 0,
                status: status
            )
        }
    }

    static func member(_ text: String) -> SWIMMember {
        guard let member = self.parse(text).first else { preconditionFailure("no member in \"\(text)\"") }
        return member
    }

    static func address(_ id: NodeID) -> SWIMAddress {
        SWIMAddress(host: "\(id.name).test", peerPort: 7_946, httpPort: 8_080)
    }

    /// One line per member, sorted, in the DSL's own form, so expected tables read like the input.
    static func render(_ members: [SWIMMember]) -> String {
        members.map { member in
            var line = "\(member.id) "
            switch member.status {
            case .alive: line += "alive"
            case .suspect: line += "suspect"
            case .dead: line += "dead"
            case .left: line += "left"
            }
            line += "@\(member.incarnation)"
            if member.generation != 1 { line += " gen=\(member.generation)" }
            if case .suspect(let by) = member.status { line += " by=" + by.map(\.name).joined(separator: ",") }
            return line
        }.joined(separator: "; ")
    }
}
