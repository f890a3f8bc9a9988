import Foundation
import HearthSystem

/// Lets at most `width` starts run at once in this test process and queues the rest without blocking a thread.
///
/// The suite runs its tests in parallel on two cores: dozens of `hearth serve` children (and in-process clusters)
/// starting together starve every timing test of CPU for seconds. Node starts take a slot of `StartGate.nodes`
/// for as long as a node takes to listen (or a cluster to open); what waits for a slot is suspended, not parked on
/// one of Swift's few cooperative threads.
public final class StartGate: Sendable {
    /// The process-wide gate every test node start goes through: as many starts at once as the machine has cores,
    /// and at least two.
    public static let nodes = StartGate(width: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Free slots, and the starts waiting for one in arrival order.
    private let state: Lock<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    /// A gate with `width` slots (at least one).
    public init(width: Int) {
        self.state = Lock((max(1, width), []))
    }

    /// Runs `body` once a slot is free and frees it when `body` returns or throws. It does not observe cancellation
    /// while waiting: a start that waits is short-lived work the test is about to need.
    public func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        await self.acquire()
        defer { self.release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = self.state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the slot to the longest waiter, or frees it.
    private func release() {
        let next = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
