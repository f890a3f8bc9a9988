import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Every shard keeps a copy of the spine's leaves and priorities, and reads of a spine path join the shards' copies
/// (`Node.union`). Those copies must stay equal to what the read view shows, whatever writes change the spine.
@Suite struct SpineCopyTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)
    private static let posts = Fixture.path("posts")
    /// The shards' copies of `path`, joined as a coordinator reads them.
    private static func joined(_ simulation: Simulation, _ path: Path) -> Node {
        Node.union(simulation.machines.map { $0.node(namespace: "default", at: path) })
    }

    @Test func aMultiShardWriteBelowASpineLeafReplacesTheLeafInEveryShard() throws {
        // Two posts in shards 2 and 3, a third in shard 0, so shard 0's copy of /posts is read first.
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [2, 3, 0]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #""none""#)])
        guard
            case .committed? = simulation.write([
                try Fixture.set("posts/\(keys[0])/x", "1"), try Fixture.set("posts/\(keys[1])/x", "1"),
            ])
        else {
            Issue.record("the fan-out must commit")
            return
        }
        let fanOut = try Fixture.node(#"{"\#(keys[0])":{"x":1},"\#(keys[1])":{"x":1}}"#)
        #expect(simulation.visible(Self.posts) == fanOut)
        for machine in simulation.machines {
            #expect(
                !machine.node(namespace: "default", at: Self.posts).isLeaf,
                "shard \(machine.shard) still holds the old spine leaf /posts = \"none\"")
        }
        #expect(Self.joined(simulation, Self.posts) == simulation.visible(Self.posts))
        // A later write to a third post in a shard that kept the old leaf must not lose the first two.
        guard case .committed? = simulation.write([try Fixture.set("posts/\(keys[2])/x", "1")]) else {
            Issue.record("the third post must commit")
            return
        }
        let all = try Fixture.node(
            #"{"\#(keys[0])":{"x":1},"\#(keys[1])":{"x":1},"\#(keys[2])":{"x":1}}"#)
        #expect(simulation.visible(Self.posts) == all, "posts written earlier were lost")
    }

    @Test func aSpineWriteBelowASpineLeafReplacesTheLeafInEveryShard() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [3, 0]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("", "3")])
        let first = try Fixture.set("posts", #"{"\#(keys[0])":{"x":1}}"#)
        let second = try Fixture.set("posts/\(keys[1])/x", "2")
        let both = try Fixture.node(#"{"posts":{"\#(keys[0])":{"x":1},"\#(keys[1])":{"x":2}}}"#)
        // A spine write: shard 3 gets the post, every other shard an empty part of /posts.
        simulation.write([first])
        #expect(Fixture.json(simulation.visible(.root)) == #"{"posts":{"\#(keys[0])":{"x":1}}}"#)
        for machine in simulation.machines {
            #expect(
                !machine.node(namespace: "default", at: .root).isLeaf,
                "shard \(machine.shard) still holds the old root leaf 3")
        }
        simulation.write([second])
        #expect(simulation.visible(.root) == both, "the first post was lost")
    }

    @Test func aSpineNodesPriorityStaysVisibleToACompareAndSet() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #"{".priority":7,"\#(keys[0])":{"x":1}}"#)])
        simulation.write([try Fixture.set("posts/\(keys[1])/x", "1")])
        simulation.write([try Fixture.set("posts/\(keys[0])", "null")])
        let shown = simulation.visible(Self.posts)
        #expect(shown == (try Fixture.node(#"{".priority":7,"\#(keys[1])":{"x":1}}"#)))
        // What a client's transaction on /posts sends: the hash of the value it was shown.
        let condition = WriteCondition(path: Self.posts, expectedHash: shown.hash)
        let update = try Fixture.set("posts", #"{"\#(keys[1])":{"x":2}}"#)
        #expect(Self.joined(simulation, Self.posts) == shown, "the shards' copies of /posts lost its priority")
        let outcome = simulation.write([update], conditions: [condition])
        guard case .committed? = outcome else {
            Issue.record(
                "a compare-and-set with the hash of the shown value must commit, got \(String(describing: outcome))")
            return
        }
    }

    /// The shards' copies of `path` join into what the view shows, every shard holding part of it has its priority,
    /// and a compare-and-set against the shown value commits.
    private static func expectCopiesHold(
        _ simulation: Simulation, at path: Path, update: Mutation, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = simulation.visible(path)
        #expect(Self.joined(simulation, path) == shown, "the shards' copies differ", sourceLocation: sourceLocation)
        for machine in simulation.machines {
            let copy = machine.node(namespace: "default", at: path)
            #expect(
                copy.isEmpty || copy.priority == shown.priority, "shard \(machine.shard) has another priority",
                sourceLocation: sourceLocation)
        }
        let outcome = simulation.write([update], conditions: [WriteCondition(path: path, expectedHash: shown.hash)])
        guard case .committed? = outcome else {
            Issue.record(
                "a compare-and-set with the shown value's hash must commit, got \(String(describing: outcome))",
                sourceLocation: sourceLocation)
            return
        }
    }

    @Test func aPrioritySetAfterChildrenExistReachesAShardGainingItsFirstChildLater() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2, 3]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts/\(keys[0])/x", "1"), try Fixture.set("posts/\(keys[1])/x", "1")])
        simulation.write([.setPriority(Self.posts, try Fixture.value("7"))])
        simulation.write([try Fixture.set("posts/\(keys[2])/x", "1")])
        simulation.write([try Fixture.set("posts/\(keys[0])", "null"), try Fixture.set("posts/\(keys[1])", "null")])
        #expect(simulation.visible(Self.posts) == (try Fixture.node(#"{".priority":7,"\#(keys[2])":{"x":1}}"#)))
        Self.expectCopiesHold(simulation, at: Self.posts, update: try Fixture.set("posts", #"{"\#(keys[2])":2}"#))
    }

    @Test func aRemovedPriorityIsNotCopiedIntoAShardGainingItsFirstChild() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #"{".priority":7,"\#(keys[0])":{"x":1}}"#)])
        simulation.write([.setPriority(Self.posts, try Fixture.value("null"))])
        simulation.write([try Fixture.set("posts/\(keys[1])/x", "1")])
        simulation.write([try Fixture.set("posts/\(keys[0])", "null")])
        #expect(simulation.visible(Self.posts) == (try Fixture.node(#"{"\#(keys[1])":{"x":1}}"#)))
        Self.expectCopiesHold(simulation, at: Self.posts, update: try Fixture.set("posts", #"{"\#(keys[1])":2}"#))
    }

    @Test func aDeletedSpineNodeComesBackWithoutItsOldPriority() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #"{".priority":7,"\#(keys[0])":{"x":1}}"#)])
        simulation.write([try Fixture.set("posts", "null")])
        simulation.write([try Fixture.set("posts/\(keys[1])/x", "1")])
        #expect(simulation.visible(Self.posts) == (try Fixture.node(#"{"\#(keys[1])":{"x":1}}"#)))
        Self.expectCopiesHold(simulation, at: Self.posts, update: try Fixture.set("posts", #"{"\#(keys[1])":2}"#))
    }

    @Test func aSpineNodeEmptiedByDeepDeletesComesBackWithoutItsOldPriority() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2, 3]))
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("posts", #"{".priority":7,"\#(keys[0])":{"x":1}}"#)])
        simulation.write([try Fixture.set("posts/\(keys[1])/x", "1")])
        simulation.write([try Fixture.set("posts/\(keys[0])", "null")])
        simulation.write([try Fixture.set("posts/\(keys[1])", "null")])
        #expect(simulation.visible(Self.posts).isEmpty)
        simulation.write([try Fixture.set("posts/\(keys[2])/x", "1")])
        #expect(simulation.visible(Self.posts) == (try Fixture.node(#"{"\#(keys[2])":{"x":1}}"#)))
        Self.expectCopiesHold(simulation, at: Self.posts, update: try Fixture.set("posts", #"{"\#(keys[2])":2}"#))
    }

    @Test func aRecoveredNodeStillCopiesSpinePriorities() throws {
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [1, 2]))
        let before = Simulation(router: Self.router)
        before.write([try Fixture.set("posts", #"{".priority":7,"\#(keys[0])":{"x":1}}"#)])
        let simulation = try Simulation(router: Self.router, snapshot: nil, records: before.records, after: 0)
        simulation.write([try Fixture.set("posts/\(keys[1])/x", "1")])
        simulation.write([try Fixture.set("posts/\(keys[0])", "null")])
        #expect(simulation.visible(Self.posts) == (try Fixture.node(#"{".priority":7,"\#(keys[1])":{"x":1}}"#)))
        Self.expectCopiesHold(simulation, at: Self.posts, update: try Fixture.set("posts", #"{"\#(keys[1])":2}"#))
    }

    @Test func aShardRestoredFromASnapshotKnowsTheSpinePrioritiesOfTheWholeRoot() throws {
        let root = try Fixture.node(#"{"posts":{".priority":7,"p":{"x":1}},"leaf":{".priority":2,".value":1}}"#)
        let machine = ShardStateMachine(
            shard: 0, spineDepth: 2, trees: [:], index: 0, intents: [:], roots: ["default": root])
        #expect(machine.spinePriorities == ["default": [Self.posts]])
    }

    @Test func anEscalatedWriteKeepsASpineLeafItOnlyDeletesBelow() throws {
        // Two deep paths under different spine leaves that share a shard, so the write goes to one shard first.
        let anchor = Fixture.path("x/y0")
        let shard = try #require(Self.router.shard(namespace: "default", path: anchor))
        let key = try #require(Fixture.keys("b", under: Fixture.path("a"), router: Self.router, shards: [shard]))[0]
        let simulation = Simulation(router: Self.router)
        simulation.write([try Fixture.set("", #"{"a":"keep","x":"leaf"}"#)])
        let outcome = simulation.write([try Fixture.set("a/\(key)/c", "null"), try Fixture.set("x/y0/z", "1")])
        guard case .committed? = outcome else {
            Issue.record("the write must commit, got \(outcome)")
            return
        }
        #expect(
            Fixture.json(simulation.visible(.root)) == #"{"a":"keep","x":{"y0":{"z":1}}}"#,
            "Firebase ignores a delete below a leaf, and turns /x into an object for the new data")
    }

    @Test func spineCopiesMatchTheViewAfterRandomSpineAndDeepWrites() throws {
        var random = SeededRandom(seed: 31)
        let keys = try #require(Fixture.keys("p", under: Self.posts, router: Self.router, shards: [0, 1, 2, 3]))
        let simulation = Simulation(router: Self.router)
        for round in 0..<150 {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            let path: Path
            switch Int.random(in: 0..<4, using: &random) {
            case 0: path = Self.posts
            case 1: path = .root
            default: path = Fixture.path("posts/\(key)")
            }
            let spec = ValueSpec.random(&random, depth: 3 - path.count)
            let mutation: Mutation
            if Int.random(in: 0..<6, using: &random) == 0 {
                mutation = .setPriority(path, try PrioritySpec.random(&random).writeValue())
            } else {
                mutation = .set(path, try spec.writeValue(at: path))
            }
            simulation.write([mutation], now: Int64(round))
            for spine in [Path.root, Self.posts] {
                let joined = Self.joined(simulation, spine)
                let shown = simulation.visible(spine)
                #expect(
                    joined.hash == shown.hash,
                    "round \(round) after \(mutation.path): shards \(Fixture.json(joined)), view \(Fixture.json(shown))"
                )
                if joined.hash != shown.hash { return }
            }
        }
    }
}
