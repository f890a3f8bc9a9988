import HearthCore
import Synchronization

/// What one committed change becomes for each kind of listener, made once and shared.
///
/// Many clients usually listen to the same location the same way (a chat room, a leaderboard). The first of them
/// to hear a change renders its events; every other listener of that kind at that path queues the same buffers.
/// Swift arrays share their storage until written, and queued bytes are never written to, so fan-out memory grows
/// with the distinct events queued, not with events times listeners, and the CPU per further listener is a queue
/// append. Listeners hear a change one after another on the commit thread; the lock only makes that safe to rely
/// on.
public final class ChangeEncodings: Sendable {
    /// A kind of rendering at one path; listeners with equal keys get equal bytes.
    struct Key: Hashable, Sendable {
        /// Which front end, and which of its renderings (`sse`, `sse-export`, `wire`).
        var kind: String
        var path: Path
    }

    private let rendered = Mutex<[Key: any Sendable]>([:])

    public init() {}

    /// The value rendered for `key`, made by `make` the first time it is asked for.
    func value<Value: Sendable>(for key: Key, _ make: () -> Value) -> Value {
        self.rendered.withLock { rendered in
            if let value = rendered[key] as? Value { return value }
            let value = make()
            rendered[key] = value
            return value
        }
    }
}
