import Testing

@testable import HearthNet

/// A writer's charges to the client memory budget, driven without a reactor: what the budget holds always equals
/// what the connection holds, and the reactor is asked to act exactly when a charge crosses the limit.
@Suite struct ConnectionWriterBudgetTests {
    private func writer(budget: ClientMemoryBudget, inbox: ReactorInbox) -> ConnectionWriter {
        ConnectionWriter(
            id: 7, limit: 1 << 20, inbox: inbox, rules: ConnectionWriter.MemoryRules(budget: budget, softLimit: nil))
    }

    private func enforcementRequests(_ inbox: ReactorInbox) -> Int {
        inbox.takeCommands().filter {
            if case .enforceClientMemoryBudget = $0 { true } else { false }
        }.count
    }

    @Test func theBudgetHoldsWhatTheConnectionHolds() throws {
        let budget = ClientMemoryBudget(limit: 1_000)
        let inbox = try ReactorInbox()
        let writer = self.writer(budget: budget, inbox: inbox)
        writer.write([UInt8](repeating: 1, count: 300))
        writer.setInboundHeld(200)
        writer.holdInbound(100)
        #expect(budget.heldBytes == 600)
        #expect(writer.heldBytes == 600)
        writer.consumed(100) { _ in }
        writer.setInboundHeld(50)
        writer.holdInbound(-500)
        #expect(budget.heldBytes == 250)
        #expect(writer.heldBytes == 250)
        #expect(self.enforcementRequests(inbox) == 0)
        writer.markClosed()
        writer.holdInbound(-10)
        writer.holdInbound(10)
        #expect(budget.heldBytes == 0)
    }

    @Test func crossingTheLimitAsksTheReactorOnce() throws {
        let budget = ClientMemoryBudget(limit: 1_000)
        let inbox = try ReactorInbox()
        let first = self.writer(budget: budget, inbox: inbox)
        let second = self.writer(budget: budget, inbox: inbox)
        first.write([UInt8](repeating: 1, count: 900))
        #expect(self.enforcementRequests(inbox) == 0)
        second.write([UInt8](repeating: 1, count: 200))
        second.write([UInt8](repeating: 1, count: 200))
        #expect(self.enforcementRequests(inbox) == 1)
        budget.enforced()
        first.beginEviction()
        #expect(budget.heldBytes == 400)
        #expect(first.write([1]) == false)
        first.writeFarewell([9, 9])
        first.endEviction()
        #expect(first.heldBytes == 2)
        #expect(budget.heldBytes == 402)
    }
}
