import HearthCore
import HearthTestKit
import Testing

/// `ChildMap` against a sorted Swift array, through thousands of seeded random updates.
@Suite struct ChildMapModelTests {
    typealias B = Tree
    typealias Model = [(key: Key, value: Int64)]

    /// Integer-like, zero-padded, negative and plain string keys, so Firebase key order is exercised.
    static let keys: [Key] = (0..<6000).map { index in
        switch index % 4 {
        case 0: B.key("\(index)")
        case 1: B.key("k\(index)")
        case 2: B.key("-\(index)")
        default: B.key("0\(index)")
        }
    }

    static func value(_ node: Node?) -> Int64? {
        guard case .int(let value) = node?.leafValue else { return nil }
        return value
    }

    static func pairs(_ elements: some Sequence<ChildMap.Element>) -> [String] {
        elements.map { "\($0.key)=\(Self.value($0.node) ?? -1)" }
    }

    static func pairs(_ model: some Sequence<(key: Key, value: Int64)>) -> [String] {
        model.map { "\($0.key)=\($0.value)" }
    }

    /// Where `key` is or would go in a model sorted by key (the B+tree's own `lowerBound`, written plainly).
    static func lowerBound<Value>(_ model: [(key: Key, value: Value)], _ key: Key) -> Int {
        var low = 0
        var high = model.count
        while low < high {
            let middle = (low + high) / 2
            if model[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomUpdatesMatchSortedArrayModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var map = ChildMap()
        var model: Model = []
        var snapshots: [(map: ChildMap, model: Model)] = []
        let steps = 16_000
        for step in 0..<steps {
            let growing = step < steps / 2
            let key = Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
            let index = Self.lowerBound(model, key)
            let isPresent = index < model.count && model[index].key == key
            let removes = Double.random(in: 0..<1, using: &random) < (growing ? 0.2 : 0.85)
            let number = Int64(step)
            let node: Node? = removes ? (Bool.random(using: &random) ? nil : .empty) : B.leaf(.int(number))
            if Bool.random(using: &random) {
                let previous = map.update(key, with: node)
                #expect(Self.value(previous) == (isPresent ? model[index].value : nil), "seed \(seed) step \(step)")
            } else {
                map = map.updating(key, with: node)
            }
            switch (removes, isPresent) {
            case (true, true): model.remove(at: index)
            case (true, false): break
            case (false, true): model[index].value = number
            case (false, false): model.insert((key, number), at: index)
            }
            #expect(map.count == model.count, "seed \(seed) step \(step)")
            #expect(Self.value(map[key]) == (removes ? nil : number), "seed \(seed) step \(step)")
            if step % 500 == 0 || step == steps - 1 {
                self.compare(map, model, random: &random, context: "seed \(seed) step \(step)")
                snapshots.append((map, model))
            }
        }
        for (index, snapshot) in snapshots.enumerated() {
            #expect(Self.pairs(snapshot.map) == Self.pairs(snapshot.model), "seed \(seed) snapshot \(index)")
        }
    }

    /// Full comparison: invariants, lookups, iteration both ways, iteration from random bounds, offsets.
    func compare(_ map: ChildMap, _ model: Model, random: inout SeededRandom, context: String) {
        #expect(map.invariantViolation() == nil, "\(context): \(map.invariantViolation() ?? "")")
        #expect(Self.pairs(map) == Self.pairs(model), "\(context)")
        #expect(Self.pairs(map.reversedElements()) == Self.pairs(model.reversed()), "\(context)")
        #expect(map.first?.key == model.first?.key && map.last?.key == model.last?.key, "\(context)")
        for _ in 0..<20 {
            let key = Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
            let inclusive = Bool.random(using: &random)
            let index = Self.lowerBound(model, key)
            let isPresent = index < model.count && model[index].key == key
            let ascendingStart = isPresent && !inclusive ? index + 1 : index
            let descendingEnd = isPresent && inclusive ? index + 1 : index
            let limit = Int.random(in: 0..<200, using: &random)
            #expect(
                Self.pairs(map.ascending(from: key, inclusive: inclusive).prefix(limit))
                    == Self.pairs(model[ascendingStart...].prefix(limit)),
                "\(context) ascending from \(key) inclusive \(inclusive)"
            )
            #expect(
                Self.pairs(map.descending(from: key, inclusive: inclusive).prefix(limit))
                    == Self.pairs(model[..<descendingEnd].reversed().prefix(limit)),
                "\(context) descending from \(key) inclusive \(inclusive)"
            )
            #expect(map.offset(of: key) == index, "\(context) offset of \(key)")
            if !model.isEmpty {
                let offset = Int.random(in: 0..<model.count, using: &random)
                #expect(map.element(atOffset: offset).key == model[offset].key, "\(context) offset \(offset)")
            }
        }
    }
}
