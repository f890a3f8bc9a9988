import HearthTestKit
import Testing

@Suite struct LinearizabilityCheckerTests {
    typealias Operation = RegisterOperation<Int>

    private func op(_ client: Int, _ kind: Operation.Kind, _ from: UInt64, _ to: UInt64?) -> Operation {
        Operation(client: client, kind: kind, invokedAt: from, completedAt: to)
    }

    @Test func sequentialHistoryThatARegisterGivesIsLinearizable() {
        let history = [
            self.op(1, .write(1), 0, 1), self.op(1, .read(1), 2, 3),
            self.op(2, .compareAndSet(expected: 1, new: 2, succeeded: true), 4, 5), self.op(2, .read(2), 6, 7),
        ]
        #expect(LinearizabilityChecker.check(history) == .linearizable)
    }

    @Test func aStaleReadAfterTheWriteCompletedIsNot() {
        let history = [self.op(1, .write(1), 0, 1), self.op(2, .read(nil), 2, 3)]
        #expect(LinearizabilityChecker.check(history) != .linearizable)
    }

    @Test func overlappingOperationsMayTakeEitherOrder() {
        let history = [
            self.op(1, .write(1), 0, 10), self.op(2, .read(nil), 1, 2), self.op(3, .read(1), 3, 4),
            self.op(4, .read(1), 11, 12),
        ]
        #expect(LinearizabilityChecker.check(history) == .linearizable)
    }

    @Test func readsCannotGoBackInTime() {
        let history = [
            self.op(1, .write(1), 0, 10), self.op(2, .read(1), 1, 2), self.op(3, .read(nil), 3, 4),
        ]
        #expect(LinearizabilityChecker.check(history) != .linearizable)
    }

    @Test func aLostWriteMayHappenLateOrNever() {
        let later = [self.op(1, .write(1), 0, nil), self.op(2, .read(nil), 5, 6), self.op(2, .read(1), 7, 8)]
        #expect(LinearizabilityChecker.check(later) == .linearizable)
        let never = [self.op(1, .write(1), 0, nil), self.op(2, .read(nil), 5, 6)]
        #expect(LinearizabilityChecker.check(never) == .linearizable)
        let flipFlop = [
            self.op(1, .write(1), 0, nil), self.op(2, .read(1), 5, 6), self.op(2, .read(nil), 7, 8),
        ]
        #expect(LinearizabilityChecker.check(flipFlop) != .linearizable)
    }

    @Test func twoSuccessfulCompareAndSetsFromOneValueAreNot() {
        let history = [
            self.op(0, .write(0), 0, 1),
            self.op(1, .compareAndSet(expected: 0, new: 1, succeeded: true), 2, 5),
            self.op(2, .compareAndSet(expected: 0, new: 2, succeeded: true), 3, 6),
        ]
        #expect(LinearizabilityChecker.check(history) != .linearizable)
    }

    /// Histories produced by a real (atomic) register under random concurrency are always linearizable, and
    /// corrupting one read's answer to a value never written is always caught.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func randomHistoriesOfAnAtomicRegister(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var register: Int?
        var history: [Operation] = []
        var clock: UInt64 = 0
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            clock += UInt64.random(in: 0...2, using: &random)
            let invokedAt = clock
            clock += UInt64.random(in: 0...2, using: &random)
            let kind: Operation.Kind
            switch Int.random(in: 0..<3, using: &random) {
            case 0: kind = .read(register)
            case 1:
                let value = Int.random(in: 0..<4, using: &random)
                register = value
                kind = .write(value)
            default:
                let expected = Bool.random(using: &random) ? register : Int.random(in: 0..<4, using: &random)
                let new = Int.random(in: 0..<4, using: &random)
                let succeeded = register == expected
                if succeeded { register = new }
                kind = .compareAndSet(expected: expected, new: new, succeeded: succeeded)
            }
            let linearizedAt = clock
            clock += UInt64.random(in: 0...2, using: &random)
            let lost = Int.random(in: 0..<10, using: &random) == 0
            if case .read = kind, lost { continue }
            history.append(
                Operation(
                    client: history.count, kind: kind, invokedAt: invokedAt - min(invokedAt, 1),
                    completedAt: lost ? nil : max(linearizedAt, clock)))
        }
        #expect(LinearizabilityChecker.check(history) == .linearizable, "seed \(seed)")
        if let index = history.indices.last(where: { if case .read = history[$0].kind { true } else { false } }) {
            var corrupted = history
            corrupted[index].kind = .read(99)
            #expect(LinearizabilityChecker.check(corrupted) != .linearizable, "seed \(seed)")
        }
    }
}

@Suite struct CounterAndSetCheckerTests {
    @Test func counterBoundsCountLostAdditionsEitherWay() {
        let bounds = CounterChecker.bounds([
            .init(delta: 1, acknowledged: true), .init(delta: 1, acknowledged: true),
            .init(delta: 1, acknowledged: false), .init(delta: -1, acknowledged: false),
        ])
        #expect(bounds == CounterChecker.Bounds(lower: 1, upper: 3))
        #expect(bounds.contains(2) && !bounds.contains(0) && !bounds.contains(4))
    }

    @Test func setCheckNamesLostAndUnexpectedElements() {
        let report = SetChecker.check(
            read: ["a", "c", "x", "r"], adds: ["a": true, "b": true, "c": false, "d": false, "r": true],
            removes: ["r": true])
        #expect(report.lost == ["b"])
        #expect(report.unexpected == ["x", "r"])
        #expect(!report.isValid)
        #expect(SetChecker.check(read: ["a"], adds: ["a": true, "b": false]).isValid)
    }
}
