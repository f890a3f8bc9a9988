import Foundation
import HearthSystem

/// Runs blocking work (socket reads in test clients) on its own thread, so it never occupies one of the few threads
/// of Swift's cooperative pool that the server under test needs. It does not observe cancellation.
public func onDedicatedThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        do {
            try DedicatedThread.start(name: "test-client") {
                continuation.resume(with: Result { try work() })
            }.detach()
        } catch {
            continuation.resume(throwing: error)
        }
    }
}

/// Sleeps for `seconds` without blocking the cooperative pool and without observing cancellation (for a handler
/// that must outlive a shutdown's cancellation).
public func uncancellableSleep(seconds: Double) async {
    _ = try? await onDedicatedThread { Thread.sleep(forTimeInterval: seconds) }
}
