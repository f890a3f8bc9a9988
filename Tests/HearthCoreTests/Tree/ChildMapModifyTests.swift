import HearthTestKit
import Testing

@testable import HearthCore

/// `ChildMap.modifyChild` inserts, keeps or removes a child at the position its one descent found; it must leave
/// exactly the map that looking the child up and storing it with `update` leaves, through small maps, B+tree splits,
/// merges and collapses, and never change a version that shares nodes with the edited map.
@Suite struct ChildMapModifyTests {
    typealias Model = ChildMapModelTests

    /// What a random edit of one child does: set it, delete it, or leave it as it is.
    enum Edit {
        case set(Int64)
        case delete
        case keep
    }

    static func randomEdit(_ random: inout SeededRandom, growing: Bool) -> Edit {
        let draw = Double.random(in: 0..<1, using: &random)
        if draw < 0.1 { return .keep }
        return draw < (growing ? 0.3 : 0.85) ? .delete : .set(Int64.random(in: 0...1_000_000, using: &random))
    }

    /// Both ways, over seeded random edits that grow the map past a few B+tree levels and shrink it back to a small
    /// one, some taken on a map that a kept version shares.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func modifyChildMatchesLookupThenUpdate(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var modified = ChildMap()
        var updated = ChildMap()
        var kept: [(map: ChildMap, pairs: [String])] = []
        let steps = 12_000
        for step in 0..<steps {
            let context = "seed \(seed) step \(step)"
            let key = Model.keys[Int.random(in: 0..<(step < steps / 2 ? 1500 : 600), using: &random)]
            let edit = Self.randomEdit(&random, growing: step < steps / 2)
            if Int.random(in: 0..<50, using: &random) == 0 { kept.append((modified, Model.pairs(modified))) }
            var ran = false
            modified.modifyChild(key) { child in
                ran = true
                switch edit {
                case .set(let number): child = Node(.int(number))
                case .delete: child = .empty
                case .keep: break
                }
            }
            switch edit {
            case .set(let number): updated.update(key, with: Node(.int(number)))
            case .delete: updated.update(key, with: nil)
            case .keep: break
            }
            #expect(ran, "\(context): body did not run")
            #expect(modified.count == updated.count, "\(context)")
            #expect(Model.value(modified[key]) == Model.value(updated[key]), "\(context): \(key)")
            if step % 250 == 0 || step == steps - 1 {
                #expect(modified.invariantViolation() == nil, "\(context): \(modified.invariantViolation() ?? "")")
                #expect(Model.pairs(modified) == Model.pairs(updated), "\(context)")
            }
        }
        for (index, version) in kept.enumerated() {
            #expect(Model.pairs(version.map) == version.pairs, "seed \(seed) kept version \(index) changed")
            #expect(version.map.invariantViolation() == nil, "seed \(seed) kept version \(index)")
        }
    }

    /// An absent child that the body leaves empty adds nothing, and an existing one it empties is removed.
    @Test func emptyResultsAddNothingAndRemoveTheChild() {
        var map = ChildMap()
        for index in 0..<40 { map.update(Tree.key("k\(index)"), with: Node(.int(Int64(index)))) }
        map.modifyChild(Tree.key("absent")) { _ in }
        #expect(map.count == 40 && map[Tree.key("absent")] == nil)
        map.modifyChild(Tree.key("k7")) { $0 = .empty }
        #expect(map.count == 39 && map[Tree.key("k7")] == nil)
        #expect(map.invariantViolation() == nil)
    }
}
