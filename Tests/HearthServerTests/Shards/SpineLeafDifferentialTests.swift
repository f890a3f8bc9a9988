import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase

/// `ShardStateMachine.landsBelowSpineLeaf` walks each path's spine nodes first and asks whether the mutation adds
/// data only at a leaf it finds; it must answer exactly as the check that skipped every mutation adding nothing
/// first, over trees with leaves on the spine and writes that add, delete and clear.
@Suite struct SpineLeafDifferentialTests {
    /// The check as it was: the spine of every mutation that adds data, walked once per distinct spine.
    private static func reference(_ machine: ShardStateMachine, _ write: ShardWrite) -> Bool {
        guard let tree = machine.trees[write.namespace] else { return false }
        var checked: ArraySlice<Key>?
        for mutation in write.mutations where mutation.addsData() {
            let keys = mutation.path.keys
            let levels = min(machine.spineDepth, keys.count)
            let spine = keys.prefix(max(levels - 1, 0))
            if checked == spine, levels > 0 { continue }
            checked = levels > 0 ? spine : nil
            var node = tree
            for depth in 0..<levels {
                if node.isLeaf, !Self.clears(write, keys.prefix(depth)) { return true }
                guard depth + 1 < levels else { break }
                node = node.child(keys[depth])
                if node.isEmpty { break }
            }
        }
        return false
    }

    private static func clears(_ write: ShardWrite, _ keys: ArraySlice<Key>) -> Bool {
        write.mutations.contains { mutation in
            guard case .set(let path, let value) = mutation, value.node.isEmpty, !value.hasServerValues else {
                return false
            }
            return path.keys.elementsEqual(keys)
        }
    }

    /// A random path of zero to four keys over three names, so that paths share spines often.
    private static func path(using random: inout SeededRandom) -> Path {
        let names = ["a", "b", "c"]
        let depth = Int.random(in: 0...4, using: &random)
        return Path(keys: (0..<depth).map { _ in Key(unchecked: names[Int.random(in: 0..<3, using: &random)]) })
    }

    /// A random tree whose nodes down to depth three are leaves, maps or missing.
    private static func tree(depth: Int, using random: inout SeededRandom) -> Node {
        switch Int.random(in: 0..<(depth >= 3 ? 2 : 4), using: &random) {
        case 0: return Node(.int(Int64(depth)))
        case 1: return .empty
        default:
            var node = Node.empty
            for name in ["a", "b", "c"] {
                let child = Self.tree(depth: depth + 1, using: &random)
                if !child.isEmpty { node.set(child, at: Path(keys: [Key(unchecked: name)])) }
            }
            return node
        }
    }

    /// Over random trees and writes (sets of values, deletes, server values and priorities at random depths), the
    /// two checks agree for spine depths one to three.
    @Test func walkingFirstAnswersAsCheckingEachAddingMutationFirst() throws {
        var random = SeededRandom(seed: 0x5350_494E_454C)
        for round in 0..<3_000 {
            let spineDepth = 1 + round % 3
            let machine = ShardStateMachine(
                shard: 0, spineDepth: spineDepth, trees: ["default": Self.tree(depth: 0, using: &random)], index: 0,
                intents: [:])
            var mutations: [Mutation] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let path = Self.path(using: &random)
                let value: WriteValue
                switch Int.random(in: 0..<4, using: &random) {
                case 0: value = WriteValue(node: .empty)
                case 1: value = try WriteValue.parseWrite(Array(#"{"v":1}"#.utf8), depth: path.count)
                case 2: value = try WriteValue.parseWrite(Array(#"{".sv":{"increment":1}}"#.utf8), depth: path.count)
                default: value = WriteValue(node: Node(.bool(true)))
                }
                mutations.append(
                    Int.random(in: 0..<6, using: &random) == 0 ? .setPriority(path, value) : .set(path, value))
            }
            let write = ShardWrite(namespace: "default", mutations: mutations, now: 0)
            #expect(
                machine.landsBelowSpineLeaf(write, in: machine.trees[write.namespace] ?? .empty)
                    == Self.reference(machine, write),
                "spine depth \(spineDepth), tree \(machine.trees), mutations \(mutations.map(\.path))")
        }
    }
}
