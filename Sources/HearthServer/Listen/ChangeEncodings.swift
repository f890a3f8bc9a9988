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

    /// A rendering, boxed so that finding it again is a class check rather than a cast of an existential value.
    private final class Rendered<Value: Sendable>: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private struct State {
        var rendered: [Key: any AnyObject & Sendable] = [:]
        /// The last rendering asked for: every listener of one kind at one path asks for the same one in a row, so
        /// most lookups compare keys instead of hashing them.
        var last: (key: Key, rendered: any AnyObject & Sendable)?
    }

    private let state = Mutex(State())

    public init() {}

    /// The value rendered for `key`, made by `make` the first time it is asked for.
    func value<Value: Sendable>(for key: Key, _ make: () -> Value) -> Value {
        self.state.withLock { state in
            if let last = state.last, last.key == key, let rendered = last.rendered as? Rendered<Value> {
                return rendered.value
            }
            let rendered: Rendered<Value>
            if let known = state.rendered[key] as? Rendered<Value> {
                rendered = known
            } else {
                rendered = Rendered(make())
                state.rendered[key] = rendered
            }
            state.last = (key, rendered)
            return rendered.value
        }
    }
}
