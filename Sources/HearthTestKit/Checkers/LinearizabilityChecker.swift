/// Decides whether a history of operations on one register is linearizable: whether each operation can be given
/// one instant between its invocation and its answer such that, in that order, every answer is what a single
/// register would have given (Herlihy & Wing). An operation whose answer was lost may take effect at any instant
/// after its invocation, or never.
///
/// The search is Wing & Gong's, with Lowe's memoization of (linearized set, state) pairs, as Porcupine and Knossos
/// use it: walk the history in time order, linearize a pending call when the register's model accepts it, and
/// back-track when an operation's answer comes before it could be placed. Check each key on its own: a history is
/// linearizable exactly when each key's is (locality).
public enum LinearizabilityChecker {
    /// The outcome of a check.
    public enum Verdict: Equatable, Sendable {
        case linearizable
        /// No order fits; `longestPrefix` is how many operations the best attempt placed.
        case notLinearizable(longestPrefix: Int)
    }

    private struct Event {
        var operation: Int
        var isCall: Bool
        var previous: Int
        var next: Int
    }

    /// Checks `history` against a register that starts holding `initial`.
    public static func check<Value>(_ history: [RegisterOperation<Value>], initial: Value? = nil) -> Verdict {
        let operations = history.filter { operation in
            if case .read = operation.kind, operation.completedAt == nil { return false }
            return true
        }
        guard !operations.isEmpty else { return .linearizable }
        var events = Self.events(of: operations)
        let head = events.count - 1
        var calls = [Int](repeating: 0, count: operations.count)
        var returns = [Int](repeating: 0, count: operations.count)
        for (index, event) in events.enumerated() where index != head {
            if event.isCall { calls[event.operation] = index } else { returns[event.operation] = index }
        }
        var linearized = Bitset(count: operations.count)
        var seen = Set<Memo<Value>>()
        var stack: [(operation: Int, state: Value?)] = []
        var state = initial
        var longest = 0
        var entry = events[head].next
        while entry != head {
            let event = events[entry]
            if event.isCall {
                let operation = event.operation
                if let next = operations[operation].step(from: state) {
                    var candidate = linearized
                    candidate.insert(operation)
                    if seen.insert(Memo(linearized: candidate, state: next)).inserted {
                        stack.append((operation, state))
                        state = next
                        linearized = candidate
                        longest = max(longest, stack.count)
                        Self.lift(calls[operation], returns[operation], in: &events)
                        entry = events[head].next
                        continue
                    }
                }
                entry = event.next
            } else {
                guard let (operation, previous) = stack.popLast() else {
                    return .notLinearizable(longestPrefix: longest)
                }
                state = previous
                linearized.remove(operation)
                Self.unlift(calls[operation], returns[operation], in: &events)
                entry = events[calls[operation]].next
            }
        }
        return .linearizable
    }

    /// Calls and returns in time order (a call before a return at the same instant, since both may overlap),
    /// as a doubly linked list whose head sentinel is the last element.
    private static func events<Value>(of operations: [RegisterOperation<Value>]) -> [Event] {
        var timeline: [(time: UInt64, isReturn: Bool, operation: Int)] = []
        for (index, operation) in operations.enumerated() {
            timeline.append((operation.invokedAt, false, index))
            timeline.append((operation.completedAt ?? .max, true, index))
        }
        timeline.sort { ($0.time, $0.isReturn ? 1 : 0, $0.operation) < ($1.time, $1.isReturn ? 1 : 0, $1.operation) }
        let head = timeline.count
        var events = timeline.enumerated().map { index, item in
            Event(
                operation: item.operation, isCall: !item.isReturn, previous: index == 0 ? head : index - 1,
                next: index + 1 == timeline.count ? head : index + 1)
        }
        events.append(Event(operation: -1, isCall: false, previous: head - 1, next: 0))
        return events
    }

    /// Takes an operation's call and return out of the list (it has been placed).
    private static func lift(_ call: Int, _ answer: Int, in events: inout [Event]) {
        for index in [call, answer] {
            let event = events[index]
            events[event.previous].next = event.next
            events[event.next].previous = event.previous
        }
    }

    /// Puts them back, in the reverse order of `lift`.
    private static func unlift(_ call: Int, _ answer: Int, in events: inout [Event]) {
        for index in [answer, call] {
            let event = events[index]
            events[event.previous].next = index
            events[event.next].previous = index
        }
    }

    private struct Memo<Value: Hashable & Sendable>: Hashable {
        var linearized: Bitset
        var state: Value?
    }
}

/// A fixed-size set of small integers.
struct Bitset: Hashable, Sendable {
    private var words: [UInt64]

    init(count: Int) {
        self.words = Array(repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ member: Int) { self.words[member / 64] |= 1 << UInt64(member % 64) }
    mutating func remove(_ member: Int) { self.words[member / 64] &= ~(1 << UInt64(member % 64)) }
}
