import Foundation
import HearthCore
import HearthSystem

/// A node's wall clock for what clients see of time: `ServerValue.timestamp` and the time part of push IDs, which
/// must be strictly increasing on one node even when the clock does not move between two calls.
public final class ServerClock: Sendable {
    private let pushIDs = Lock(PushIDGenerator())

    public init() {}

    /// Milliseconds since the Unix epoch.
    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A new push ID from this clock, strictly greater than every earlier one from this node.
    public func nextPushID() -> String {
        let now = self.now()
        return self.pushIDs.withLock { generator in
            var random = SystemRandomNumberGenerator()
            return generator.next(now: now, using: &random)
        }
    }
}
