import Foundation

/// Runs blocking work (socket reads in test clients) on its own thread, so it never occupies one of the few threads
/// of Swift's cooperative pool that the server under test needs.
public func onDedicatedThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
