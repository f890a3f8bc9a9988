import Testing

@testable import HearthNet

@Suite struct ClientMemoryBudgetTests {
    /// The biggest holders go first, the newest among equals, until what they hold covers the excess; a connection
    /// holding nothing is never chosen.
    @Test func evictsTheBiggestHoldersUntilTheExcessIsCovered() {
        let held: [(id: UInt64, bytes: Int)] = [(1, 300), (2, 500), (3, 500), (4, 0), (5, 100)]
        #expect(ClientMemoryBudget.evictionOrder(held, total: 1_400, limit: 1_000) == [3])
        #expect(ClientMemoryBudget.evictionOrder(held, total: 1_400, limit: 500) == [3, 2])
        #expect(ClientMemoryBudget.evictionOrder(held, total: 1_400, limit: 0) == [3, 2, 1, 5])
        #expect(ClientMemoryBudget.evictionOrder(held, total: 900, limit: 1_000).isEmpty)
    }

    /// A charge over the limit asks for enforcement once; later ones wait until the reactor says it has acted, and
    /// releases never ask.
    @Test func asksOnceUntilEnforced() {
        let budget = ClientMemoryBudget(limit: 1_000)
        #expect(!budget.charge(600))
        #expect(budget.charge(600))
        #expect(!budget.charge(100))
        #expect(budget.heldBytes == 1_300)
        budget.enforced()
        #expect(!budget.charge(-200))
        #expect(budget.charge(1))
        #expect(!budget.charge(0))
        budget.enforced()
        #expect(!budget.charge(-1_101))
        #expect(budget.heldBytes == 0)
    }

    /// Each reason fits whole in a WebSocket close frame.
    @Test func reasonsFitACloseFrame() {
        for reason in [ConnectionEviction.clientMemoryBudget, .outputSoftLimit] {
            #expect(reason.description.utf8.count <= 123)
        }
    }
}
