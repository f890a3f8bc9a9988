import HearthTestKit
import Testing

@testable import HearthCore

/// A B+tree node holds its entries in its own allocation (`ChildMap+NodeStorage.swift`), written through pointers:
/// these tests hold its operations against a sorted-array model under seeded random inserts, deletes, in-place edits,
/// copies and shared versions, and count live objects, so every entry a node initialised is deinitialised exactly
/// once — none leaked (every value and node is gone once the maps are), none released early (every value a kept
/// version holds is still alive and its own).
@Suite struct ChildMapNodeStorageTests {
    typealias Model = [(key: Key, value: Double)]

    /// A reference that does not keep its object alive, to see when the object is freed.
    struct Watched {
        weak var object: AnyObject?
    }

    /// Integer-like, zero-padded and plain string keys (some longer than 15 bytes, so held on the heap).
    static let keys: [Key] = (0..<4000).map { index in
        switch index % 4 {
        case 0: Key(unchecked: "\(index)")
        case 1: Key(unchecked: "k\(index)")
        case 2: Key(unchecked: "a-much-longer-push-id-\(index)")
        default: Key(unchecked: "0\(index)")
        }
    }

    /// The map's children as (key, value) pairs, for comparing with a model.
    static func pairs(_ elements: some Sequence<ChildMap.Element>) -> [String] {
        elements.map { element in
            guard case .double(let value) = element.node.leafValue else { return "\(element.key)=?" }
            return "\(element.key)=\(value)"
        }
    }

    static func pairs(_ model: some Sequence<(key: Key, value: Double)>) -> [String] {
        model.map { "\($0.key)=\($0.value)" }
    }

    /// A value node held in a box of its own (a double), so its lifetime can be watched.
    static func value(_ number: Double, watching watched: inout [Watched]) -> Node {
        let node = Node(.double(number))
        if case .double(let box) = node.representation { watched.append(Watched(object: box)) }
        return node
    }

    /// Every B+tree node of `map`, watched.
    static func watchNodes(of map: ChildMap, into watched: inout [Watched]) {
        guard case .tree(let root) = map.storage else { return }
        var pending = [root]
        while let node = pending.popLast() {
            watched.append(Watched(object: node))
            if !node.isLeaf { pending.append(contentsOf: (0..<node.fill).map(node.child(at:))) }
        }
    }

    /// Random sets, deletes and in-place edits (through `update`, `updating` and `modifyChild`) grow a map past three
    /// B+tree levels and shrink it back to an array, with versions kept, shared and dropped at random: the map always
    /// equals the model, every kept version its own model at the end, and once every map is dropped no value and no
    /// tree node is left alive.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func nodeOperationsMatchSortedArrayModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var watchedValues: [Watched] = []
        var watchedNodes: [Watched] = []
        do {
            var map = ChildMap()
            var model: Model = []
            var versions: [(map: ChildMap, model: Model)] = []
            let steps = 9_000
            for step in 0..<steps {
                let context = "seed \(seed) step \(step)"
                let growing = step < steps / 2
                let key = Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
                let index = ChildMapModelTests.lowerBound(model, key)
                let isPresent = index < model.count && model[index].key == key
                let removes = Double.random(in: 0..<1, using: &random) < (growing ? 0.25 : 0.8)
                let number = Double(step) + 0.5
                let node = removes ? Node.empty : Self.value(number, watching: &watchedValues)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: map.update(key, with: node)
                case 1: map = map.updating(key, with: node)
                default: map.modifyChild(key) { $0 = node }
                }
                switch (removes, isPresent) {
                case (true, true): model.remove(at: index)
                case (true, false): break
                case (false, true): model[index].value = number
                case (false, false): model.insert((key, number), at: index)
                }
                #expect(map.count == model.count, "\(context)")
                if Int.random(in: 0..<40, using: &random) == 0 {
                    versions.append((map, model))
                    Self.watchNodes(of: map, into: &watchedNodes)
                }
                if versions.count > 6, let drop = versions.indices.randomElement(using: &random) {
                    versions.remove(at: drop)
                }
                if step % 300 == 0 {
                    #expect(map.invariantViolation() == nil, "\(context): \(map.invariantViolation() ?? "")")
                    #expect(Self.pairs(map) == Self.pairs(model), "\(context)")
                    #expect(Self.pairs(map.reversedElements()) == Self.pairs(model.reversed()), "\(context)")
                }
            }
            #expect(Self.pairs(map) == Self.pairs(model), "seed \(seed) at the end")
            for (number, version) in versions.enumerated() {
                #expect(version.map.invariantViolation() == nil, "seed \(seed) version \(number)")
                #expect(Self.pairs(version.map) == Self.pairs(version.model), "seed \(seed) version \(number)")
            }
            let alive = watchedValues.filter { $0.object != nil }.count
            #expect(alive >= model.count, "seed \(seed): \(alive) values alive for \(model.count) held")
        }
        #expect(watchedValues.allSatisfy { $0.object == nil }, "seed \(seed): values outlived every map")
        #expect(watchedNodes.allSatisfy { $0.object == nil }, "seed \(seed): tree nodes outlived every map")
    }

    /// Built maps of every size around the leaf and level boundaries hold their children in order, meet the B+tree's
    /// bounds, and free every value and node once dropped; a builder copied half-way builds its own map.
    @Test func builtMapsMatchAndFreeEverything() {
        var watchedValues: [Watched] = []
        var watchedNodes: [Watched] = []
        do {
            for total in [0, 1, 31, 32, 33, 34, 47, 48, 64, 65, 1024, 1025, 1040, 2100] {
                var builder = ChildMap.Builder()
                var model: Model = []
                var copy: ChildMap.Builder?
                var copyModel: Model = []
                for index in 0..<total {
                    let key = Key(unchecked: "key-\(100_000 + index)")
                    builder.append(key, Self.value(Double(index), watching: &watchedValues))
                    model.append((key, Double(index)))
                    if index == total / 2 {
                        copy = builder
                        copyModel = model
                    }
                }
                if var copied = copy {
                    copied.append(Key(unchecked: "zz"), Self.value(-1, watching: &watchedValues))
                    copyModel.append((Key(unchecked: "zz"), -1))
                    let built = copied.finish()
                    Self.watchNodes(of: built, into: &watchedNodes)
                    #expect(built.invariantViolation() == nil, "copy of \(total)")
                    #expect(Self.pairs(built) == Self.pairs(copyModel), "copy of \(total)")
                }
                let map = builder.finish()
                Self.watchNodes(of: map, into: &watchedNodes)
                #expect(map.invariantViolation() == nil, "\(total): \(map.invariantViolation() ?? "")")
                #expect(Self.pairs(map) == Self.pairs(model), "\(total)")
                #expect(map.count == total)
            }
        }
        #expect(watchedValues.allSatisfy { $0.object == nil }, "values outlived their maps")
        #expect(watchedNodes.allSatisfy { $0.object == nil }, "tree nodes outlived their maps")
    }

    /// A copied node is a new allocation holding the same entries, and writing either leaves the other unchanged.
    @Test func aCopiedNodeIsIndependent() {
        var watched: [Watched] = []
        do {
            let leaf = ChildMap.TreeNode.makeLeaf()
            for index in 0..<20 {
                leaf.appendElement(
                    ChildMap.Entry(
                        key: Key(unchecked: "k\(100 + index)"), node: Self.value(Double(index), watching: &watched))
                )
            }
            let copy = leaf.copy()
            #expect(copy !== leaf)
            _ = copy.removeElement(at: 0)
            copy.insertElement(ChildMap.Entry(key: Key(unchecked: "k099"), node: Node(.double(-1))), at: 0)
            #expect(leaf.fill == 20 && copy.fill == 20)
            #expect(leaf.element(at: 0).key == Key(unchecked: "k100"))
            #expect(copy.element(at: 0).key == Key(unchecked: "k099"))
            #expect(watched.allSatisfy { $0.object != nil }, "the original still holds every value")
        }
        #expect(watched.allSatisfy { $0.object == nil }, "values outlived both nodes")
    }
}
