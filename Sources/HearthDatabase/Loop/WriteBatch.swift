import HearthCore
import HearthSystem

/// Writes of one connection handed to the write loop together, answered together: `completion` gets every write's
/// answer, in the batch's order, once the last is known (its write committed and shown, refused, or failed).
package final class WriteBatch: Sendable {
    /// What one write of the batch became.
    package typealias Answer = Result<WriteOutcome, any Error>

    private struct Answers {
        var answers: [Answer?]
        var remaining: Int
    }

    /// Decides the batch's writes in the loop's turn.
    let decider: WriteDecider
    /// The connection the writes came from: its writes are ordered as sent, across detours (`WriteDecider`).
    let connection: UInt64
    let writes: [LoopWrite]
    /// The answers so far; nil for a batch of one write (a realtime client's usual one), whose one answer is the
    /// last: it needs no lock, which the reactor that makes the batch would allocate and another thread free.
    private let answers: Lock<Answers>?
    private let completion: @Sendable ([Answer]) -> Void

    init(
        decider: WriteDecider, connection: UInt64, writes: [LoopWrite],
        completion: @escaping @Sendable ([Answer]) -> Void
    ) {
        self.decider = decider
        self.connection = connection
        self.writes = writes
        self.answers =
            writes.count == 1
            ? nil : Lock(Answers(answers: Array(repeating: nil, count: writes.count), remaining: writes.count))
        self.completion = completion
    }

    /// Records the answer of write `index`; the last one calls the completion, on the calling thread.
    func answer(_ index: Int, _ answer: Answer) {
        guard let answers = self.answers else { return self.completion([answer]) }
        let complete = answers.withLock { answers -> [Answer]? in
            answers.answers[index] = answer
            answers.remaining -= 1
            return answers.remaining == 0 ? answers.answers.compactMap { $0 } : nil
        }
        if let complete { self.completion(complete) }
    }
}
