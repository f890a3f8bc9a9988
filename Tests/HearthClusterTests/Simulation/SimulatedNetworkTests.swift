import HearthTestKit
import Testing

@Suite struct SimulatedNetworkTests {
    typealias Network = SimulatedNetwork<String, Int>

    private func drain(_ network: inout Network, until time: UInt64 = .max) -> [Network.Envelope] {
        var delivered: [Network.Envelope] = []
        while let next = network.deliverNext(notAfter: time) { delivered.append(next) }
        return delivered
    }

    @Test func deliversInSendOrderWithoutFaults() {
        var network = Network(seed: 1)
        for n in 0..<5 { network.send(n, from: "a", to: "b", now: 10) }
        #expect(network.deliverNext(notAfter: 10) == nil)
        #expect(self.drain(&network).map(\.message) == [0, 1, 2, 3, 4])
        #expect(network.statistics.delivered == 5)
    }

    @Test func sameSeedSameFate() {
        let faults = Network.Faults(dropRate: 0.3, duplicateRate: 0.3, delay: 1...50)
        func run() -> [Int] {
            var network = Network(seed: 42, faults: faults)
            for n in 0..<200 { network.send(n, from: "a", to: "b", now: UInt64(n)) }
            return self.drain(&network).map(\.message)
        }
        let first = run()
        #expect(first == run())
        #expect(first.count != 200)
        #expect(first != first.sorted())
    }

    @Test func faultRatesAreRoughlyHonoured() {
        var network = Network(seed: 7, faults: Network.Faults(dropRate: 0.3, duplicateRate: 0.5))
        for n in 0..<10_000 { network.send(n, from: "a", to: "b", now: 0) }
        #expect((2_700...3_300).contains(network.statistics.dropped))
        #expect((3_200...3_800).contains(network.statistics.duplicated))
        #expect(self.drain(&network).count == 10_000 - network.statistics.dropped + network.statistics.duplicated)
    }

    @Test func partitionDropsBothWaysAndWhatIsOnTheWire() {
        var network = Network(seed: 3, faults: Network.Faults(delay: 5...5))
        network.send(1, from: "a", to: "b", now: 0)
        network.partition(["a"], from: ["b", "c"])
        network.send(2, from: "b", to: "a", now: 1)
        network.send(3, from: "b", to: "c", now: 1)
        #expect(self.drain(&network).map(\.message) == [3])
        network.heal()
        network.send(4, from: "a", to: "b", now: 10)
        #expect(self.drain(&network).map(\.message) == [4])
    }

    @Test func asymmetricCutLosesOneDirectionOnly() {
        var network = Network(seed: 4)
        network.cutLink(from: "a", to: "b")
        network.send(1, from: "a", to: "b", now: 0)
        network.send(2, from: "b", to: "a", now: 0)
        #expect(self.drain(&network).map(\.message) == [2])
        #expect(network.isCut(from: "a", to: "b") && !network.isCut(from: "b", to: "a"))
    }

    @Test func crashDropsMessagesToAndFromTheNode() {
        var network = Network(seed: 5)
        network.send(1, from: "a", to: "b", now: 0)
        network.send(2, from: "c", to: "a", now: 0)
        network.send(3, from: "b", to: "c", now: 0)
        network.dropAll(involving: "a")
        #expect(self.drain(&network).map(\.message) == [3])
    }

    @Test func queuePopsByTimeThenInsertionOrder() {
        var queue = SimulationQueue<String>()
        queue.insert("late", at: 9)
        queue.insert("first", at: 2)
        queue.insert("second", at: 2)
        queue.insert("middle", at: 5)
        var popped: [String] = []
        while !queue.isEmpty { popped.append(queue.removeFirst()) }
        #expect(popped == ["first", "second", "middle", "late"])
    }
}
