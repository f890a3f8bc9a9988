import HearthCore
import HearthTestKit
import HearthWire

/// Random mutations for the shard apply's property tests: sets of plain values and of server values at paths of one
/// to three of five keys, and priorities set to an increment, a number or null.
struct RandomShardMutations {
    static let keys = ["a", "b", "c", "1", "n"]
    /// The plain values a set may write (JSON).
    let values: [String]
    /// The server values a set may write (JSON).
    let serverValues: [String]
    /// Of every ten mutations, how many set a plain value; up to eight set a server value, the rest a priority.
    let plainSets: Int

    func path(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in
            Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
        }.joined(separator: "/")
    }

    func mutation(_ random: inout SeededRandom) throws -> Mutation {
        let path = self.path(&random)
        let kind = Int.random(in: 0..<10, using: &random)
        if kind < self.plainSets {
            return try Fixture.set(path, self.values[Int.random(in: 0..<self.values.count, using: &random)])
        }
        if kind < 8 {
            return try Fixture.set(
                path, self.serverValues[Int.random(in: 0..<self.serverValues.count, using: &random)])
        }
        if kind == 8 {
            return .setPriority(Fixture.path(path), try Fixture.value(#"{".sv":{"increment":2}}"#))
        }
        return .setPriority(Fixture.path(path), try Fixture.value(Bool.random(using: &random) ? "4" : "null"))
    }
}
