import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase

/// A machine finds a namespace's tree by comparing the one name it holds, or by the dictionary's lookup when it holds
/// several: writes into one, two or three namespaces, with increments and deletes that empty a tree, must read and
/// leave each namespace's tree as a tree per namespace written alone does, and keep no empty tree.
@Suite struct ShardNamespaceTreesTests {
    private static let namespaces = ["default", "other", "a-namespace-name-longer-than-fifteen-bytes"]

    private static func mutation(_ random: inout SeededRandom) throws -> Mutation {
        let path = ["a", "b", "a/c", "b/d"][Int.random(in: 0..<4, using: &random)]
        let value = ["1", "null", #"{".sv":{"increment":2}}"#, #"{"x":1}"#][Int.random(in: 0..<4, using: &random)]
        return try Fixture.set(path, value)
    }

    @Test(arguments: [1, 2, 3])
    func eachNamespaceKeepsItsOwnTree(namespacesUsed used: Int) throws {
        var random = SeededRandom(seed: UInt64(used))
        var machine = ShardStateMachine(shard: 0, spineDepth: 1)
        var expected: [String: Node] = [:]
        for step in 0..<400 {
            let namespace = Self.namespaces[Int.random(in: 0..<used, using: &random)]
            let mutations = try (0..<Int.random(in: 1...3, using: &random)).map { _ in try Self.mutation(&random) }
            let write = ShardWrite(namespace: namespace, mutations: mutations, now: Int64(step))
            var tree = expected[namespace] ?? .empty
            let resolved = mutations.map { ShardStateMachine.resolve($0, in: tree, now: write.now) }
            for mutation in resolved { mutation.apply(to: &tree) }
            expected[namespace] = tree.isEmpty ? nil : tree
            guard case .appended(_, let applied) = machine.write(write, conditions: []),
                case .write(let change) = applied.effect
            else {
                Issue.record("step \(step): not applied")
                return
            }
            #expect(change.mutations == resolved, "step \(step)")
            #expect(machine.trees == expected, "step \(step)")
            for name in Self.namespaces {
                #expect(machine.node(namespace: name, at: .root) == expected[name] ?? .empty, "step \(step) \(name)")
            }
        }
    }

    /// A machine holding one namespace's tree reads none for another name, whatever the name.
    @Test func anotherNameFindsNoTree() throws {
        let tree = try Fixture.node(#"{"n":1}"#)
        let machine = ShardStateMachine(shard: 0, spineDepth: 1, trees: ["default": tree], index: 0, intents: [:])
        #expect(machine.tree(of: "default") == tree)
        for name in ["", "defaul", "default ", "Default", "other", String(repeating: "default", count: 4)] {
            #expect(machine.treeIndex(of: name) == nil, "\(name)")
            #expect(machine.tree(of: name) == .empty, "\(name)")
        }
    }
}
