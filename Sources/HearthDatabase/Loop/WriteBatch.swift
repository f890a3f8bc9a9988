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

    /// Who gets the answers: a batch of one write (a realtime client's usual one) hands its one answer on as it is,
    /// with no array made for it on the thread that answers.
    enum Completion: Sendable {
        case one(@Sendable (Answer) -> Void)
        case all(@Sendable ([Answer]) -> Void)
        /// One write whose answer is read only for whether it committed (the realtime protocol's acknowledgement):
        /// a committed write spanning shards is answered without its mutations (`WriteOutcome.committed([])`; a
        /// single shard's still carries them, which cost nothing to hand on), and the answer goes with the caller's
        /// number for it (the session's place for the acknowledgement): a closure that captures nothing but its
        /// object is that object, where one that also captured the number would be an allocation per write.
        case acknowledgement(UInt64, @Sendable (UInt64, Answer) -> Void)
    }

    /// Decides the batch's writes in the loop's turn.
    let decider: WriteDecider
    /// The connection the writes came from: its writes are ordered as sent, across detours (`WriteDecider`).
    let connection: UInt64
    /// How many writes the batch has: they travel beside it, in its order, to the loop that decides each
    /// (`WriteLoop.submit`), and are answered by their index.
    let count: Int
    /// The answers so far; nil for a batch of one write (a realtime client's usual one), whose one answer is the
    /// last: it needs no lock, which the reactor that makes the batch would allocate and another thread free.
    private let answers: Lock<Answers>?
    private let completion: Completion

    /// - Parameter completion: `.one` or `.acknowledgement` only for a batch of one write.
    init(decider: WriteDecider, connection: UInt64, count: Int, completion: Completion) {
        self.decider = decider
        self.connection = connection
        self.count = count
        self.answers = count == 1 ? nil : Lock(Answers(answers: Array(repeating: nil, count: count), remaining: count))
        self.completion = completion
    }

    /// Whether a committed write's answer carries its mutations as resolved: false for an acknowledgement, so the
    /// write loop need not join a write's parts into one list for it (`CommitFeed.merge`).
    var answersWithMutations: Bool {
        if case .acknowledgement = self.completion { return false }
        return true
    }

    /// Records the answer of write `index`; the last one calls the completion, on the calling thread.
    func answer(_ index: Int, _ answer: Answer) {
        guard let answers = self.answers else { return self.complete([answer], or: answer) }
        let complete = answers.withLock { answers -> [Answer]? in
            answers.answers[index] = answer
            answers.remaining -= 1
            return answers.remaining == 0 ? answers.answers.compactMap { $0 } : nil
        }
        if let complete { self.complete(complete, or: answer) }
    }

    /// Calls the completion with `all` the answers, or with `one` for a batch of one write (and its tag); `all` is
    /// made only when it is called for.
    private func complete(_ all: @autoclosure () -> [Answer], or one: Answer) {
        switch self.completion {
        case .one(let completion): completion(one)
        case .all(let completion): completion(all())
        case .acknowledgement(let tag, let completion): completion(tag, one)
        }
    }
}
