import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthNode

/// A write spanning shards is cut into a part per shard (`WriteDecider.parts`; the last part keeps the write's own
/// list of mutations when it holds at least half of them), whose edits wait on the stack between their resolve and
/// commit steps and are listed in the answer only when it carries mutations (`ShardActor.commitTogetherNow`). However
/// a write is cut and answered, its mutations land as applied one after another.
@Suite struct WriteLoopPartsTests {
    /// The write's mutations, each a set of a number or an increment at one of three children of three posts, no
    /// two at one path (as an update's), as the model applies them: an increment adds to what the path held (none
    /// counts as nothing).
    private static func randomWrite(
        _ posts: [String], into model: inout [Path: Int64], using random: inout SeededRandom
    ) throws -> [Mutation] {
        let texts = posts.flatMap { post in ["n", "m", "c"].map { "posts/\(post)/\($0)" } }.shuffled(using: &random)
        var mutations: [Mutation] = []
        for text in texts.prefix(Int.random(in: 2...7, using: &random)) {
            let path = Fixture.path(text)
            if Bool.random(using: &random) {
                let value = Int64.random(in: -50...50, using: &random)
                mutations.append(try Fixture.set(text, "\(value)"))
                model[path] = value
            } else {
                let delta = Int64.random(in: -5...5, using: &random)
                mutations.append(try Fixture.set(text, #"{".sv":{"increment":\#(delta)}}"#))
                model[path] = (model[path] ?? 0) + delta
            }
        }
        return mutations
    }

    /// Seeded random writes over posts of three shards (each part holding more or less than half of its write),
    /// answered with their mutations and as acknowledgements in turn: each is committed, an answer with mutations
    /// lists each mutation as resolved (the model's value), and the view holds what applying them in order gives.
    @Test(arguments: [UInt64(1), 2, 3])
    func writesCutIntoPartsLandAsAppliedInOrder(seed: UInt64) async throws {
        try await Database.withFresh { database in
            let router = database.coordinator.router
            let posts = try #require(
                Fixture.keys("p", under: Fixture.path("posts"), router: router, shards: [0, 1, 2]))
            var random = SeededRandom(seed: seed)
            var model: [Path: Int64] = [:]
            for round in 0..<120 {
                let mutations = try Self.randomWrite(posts, into: &model, using: &random)
                let write = LoopWrite(namespace: "default", mutations: mutations, conditions: [], now: 1, origin: nil)
                let answer: WriteBatch.Answer
                if round.isMultiple(of: 2) {
                    answer = await withCheckedContinuation { done in
                        database.writes.submit(connection: 1, write) { done.resume(returning: $0) }
                    }
                    guard case .success(.committed(let resolved)) = answer else {
                        Issue.record("write \(round) was answered \(answer)")
                        return
                    }
                    #expect(Set(resolved.map(\.path)) == Set(mutations.map(\.path)), "write \(round)")
                    for mutation in resolved {
                        let path = mutation.path
                        #expect(mutation == .set(path, Node(.int(model[path] ?? 0))), "write \(round): \(path)")
                    }
                } else {
                    answer = await withCheckedContinuation { done in
                        database.writes.submitAcknowledged(connection: 1, write, tag: 0) { _, answer in
                            done.resume(returning: answer)
                        }
                    }
                    guard case .success(.committed) = answer else {
                        Issue.record("write \(round) was answered \(answer)")
                        return
                    }
                }
            }
            let root = database.view.root("default")
            for (path, value) in model {
                #expect(root.node(at: path) == Node(.int(value)), "\(path)")
            }
        }
    }
}
