import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// `ShardLockTable` against the rule it indexes, checked by brute force over every holder: random holds and
/// releases of prepared writes, increments and read locks, then random queries with and without `except`.
@Suite struct ShardLockTableTests {
    typealias Holder = ShardLockTable.Holder

    static let keys = ["a", "b", "c"].map { Key(unchecked: $0) }

    static func pick<T>(_ choices: [T], _ random: inout SeededRandom) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    static func randomPath(_ random: inout SeededRandom) -> Path {
        Path(keys: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.pick(Self.keys, &random) })
    }

    static func randomMutation(_ random: inout SeededRandom) throws -> Mutation {
        let location = WriteLocation(path: Self.randomPath(&random))
        let value: JSONValue = Bool.random(using: &random) ? .object([".sv": .object(["increment": .int(1)])]) : .int(1)
        return try WriteRules.set(value, at: location)
    }

    /// The rule written out plainly: overlapping paths conflict unless both are bare increments of one counter.
    static func conflict(_ a: Mutation, _ b: Mutation) -> Bool {
        guard a.path.contains(b.path) || b.path.contains(a.path) else { return false }
        return !(a.path == b.path && a.incrementDelta != nil && b.incrementDelta != nil)
    }

    /// The rule checked against every holder, one by one.
    static func bruteForce(
        _ held: [Holder: (namespace: String, mutations: [Mutation], reads: [Path])], namespace: String,
        mutations: [Mutation], reads: [Path], except: TransactionID?
    ) -> Bool {
        func overlaps(_ a: Path, _ b: Path) -> Bool { a.contains(b) || b.contains(a) }
        for (holder, holds) in held where holder.transaction != except && holds.namespace == namespace {
            for mine in mutations {
                if holds.mutations.contains(where: { Self.conflict(mine, $0) }) { return true }
                if holds.reads.contains(where: { overlaps($0, mine.path) }) { return true }
            }
            for read in reads {
                if holds.mutations.contains(where: { overlaps($0.path, read) }) { return true }
                if holds.reads.contains(where: { overlaps($0, read) }) { return true }
            }
        }
        return false
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func answersLikeAScanOverEveryHolder(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var table = ShardLockTable()
        var held: [Holder: (namespace: String, mutations: [Mutation], reads: [Path])] = [:]
        let transactions = (1...6).map { TransactionID(rawValue: UInt64($0)) }
        let namespaces = ["default", "other"]
        for step in 0..<600 {
            let holder = Holder(
                transaction: Self.pick(transactions, &random), isRead: Bool.random(using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let namespace = Self.pick(namespaces, &random)
                if holder.isRead {
                    let reads = (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.randomPath(&random) }
                    table.hold(holder, namespace: namespace, paths: reads.map { ($0, .read) })
                    held[holder] = (namespace, [], reads)
                } else {
                    let mutations = try (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        try Self.randomMutation(&random)
                    }
                    let holds =
                        mutations.map { ($0.path, $0.incrementDelta == nil ? .write : .increment) }
                        as [(Path, ShardLockTable.Hold)]
                    table.hold(holder, namespace: namespace, paths: holds)
                    held[holder] = (namespace, mutations, [])
                }
            case 4..<6:
                table.release(holder)
                held[holder] = nil
            default:
                let namespace = Self.pick(namespaces, &random)
                let mutations = try (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    try Self.randomMutation(&random)
                }
                let reads = (0..<Int.random(in: 0...1, using: &random)).map { _ in Self.randomPath(&random) }
                let except = Bool.random(using: &random) ? Self.pick(transactions, &random) : nil
                let expected = Self.bruteForce(
                    held, namespace: namespace, mutations: mutations, reads: reads, except: except)
                let answer = table.blocks(namespace: namespace, mutations: mutations, reads: reads, except: except)
                #expect(answer == expected, "seed \(seed) step \(step): \(mutations.map(\.path)) reads \(reads)")
            }
        }
        for holder in held.keys { table.release(holder) }
        #expect(table.isEmpty)
    }
}
