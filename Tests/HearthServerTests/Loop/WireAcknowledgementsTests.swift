import HearthCore
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthServer

/// A realtime session's answers leave in request order whatever order they are known in, and a request behind
/// its writes waits until every one is answered.
@Suite struct WireAcknowledgementsTests {
    private static func entry(_ id: Int64) -> WireAcknowledgements.Entry {
        WireAcknowledgements.Entry(id: id, action: "p", started: .now, path: .root)
    }

    /// Answers known last-first are sent first-first, each once, and the barrier opens after the last.
    @Test func answersLeaveInRequestOrder() async {
        let acknowledgements = WireAcknowledgements()
        let numbers = (0..<5).map { acknowledgements.append(Self.entry($0)) }
        let sent = Mutex<[Int64]>([])
        for number in numbers.reversed() {
            acknowledgements.answer(number, .success(.committed([]))) { entry, _ in
                sent.withLock { $0.append(entry.id) }
            }
            let expected: [Int64] = number == numbers[0] ? [0, 1, 2, 3, 4] : []
            #expect(sent.withLock { $0 } == expected)
        }
        await acknowledgements.barrier()
        #expect(acknowledgements.append(Self.entry(5)) == 5)
    }

    /// Answered from four tasks at once, in a seeded random order, every write's answer leaves once, in request
    /// order, with the answer it was given: a write answered at the head while nobody sends goes as its answer came,
    /// the others wait in their slots for the sender.
    @Test func answersLeaveWithTheirWritesWhenAnsweredFromManyThreads() async {
        let acknowledgements = WireAcknowledgements()
        let count = 4_000
        let numbers = (0..<count).map { acknowledgements.append(Self.entry(Int64($0))) }
        var random = SeededRandom(seed: 37)
        let order = numbers.shuffled(using: &random)
        let sent = Lock<[(id: Int64, answer: Int64)]>([])
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                let share = order[(lane * count / 4)..<((lane + 1) * count / 4)]
                group.addTask {
                    for number in share {
                        acknowledgements.answer(number, .failure(Tagged(number: number))) { entry, answer in
                            guard case .failure(let error as Tagged) = answer else { return }
                            sent.withLock { $0.append((entry.id, Int64(error.number))) }
                        }
                    }
                }
            }
        }
        let answered = sent.withLock { $0 }
        #expect(answered.map(\.id) == Array(0..<Int64(count)))
        #expect(answered.allSatisfy { $0.id == $0.answer })
        await acknowledgements.barrier()
        #expect(acknowledgements.append(Self.entry(Int64(count))) == UInt64(count))
    }

    /// An answer that names its write.
    private struct Tagged: Error {
        var number: UInt64
    }

    /// A session holds at most `maximumUnanswered` unanswered writes: at the bound there is no room (a write is not
    /// queued), and a wait for room ends once the oldest is answered, when a write is queued after the others.
    @Test func unansweredWritesAreBounded() async {
        let acknowledgements = WireAcknowledgements()
        let numbers = (0..<WireAcknowledgements.maximumUnanswered).map {
            acknowledgements.append(Self.entry(Int64($0)))
        }
        #expect(acknowledgements.appendIfRoom(Self.entry(-1)) == nil)
        let waited = Mutex(false)
        async let room: Void = {
            await acknowledgements.waitForRoom()
            waited.withLock { $0 = true }
        }()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!waited.withLock { $0 })
        acknowledgements.answer(numbers[0], .success(.committed([]))) { _, _ in }
        await room
        #expect(waited.withLock { $0 })
        let last = WireAcknowledgements.maximumUnanswered
        #expect(acknowledgements.appendIfRoom(Self.entry(Int64(last))) == UInt64(last))
    }

    /// Answered writes are dropped from the front in bulk while later ones wait: writes answered past that point,
    /// behind it and ahead of it, are still found by their numbers and sent in request order, each once.
    @Test func numbersHoldAcrossTheBulkDrop() async {
        let acknowledgements = WireAcknowledgements()
        let numbers = (0..<100).map { acknowledgements.append(Self.entry($0)) }
        let sent = Mutex<[Int64]>([])
        let record: (WireAcknowledgements.Entry, WireAcknowledgements.Answer) -> Void = { entry, _ in
            sent.withLock { $0.append(entry.id) }
        }
        for number in numbers[..<70] { acknowledgements.answer(number, .success(.committed([])), send: record) }
        #expect(sent.withLock { $0 } == Array(0..<70))
        let later = (100..<110).map { acknowledgements.append(Self.entry($0)) }
        acknowledgements.answer(numbers[85], .success(.committed([])), send: record)
        acknowledgements.answer(later[3], .success(.committed([])), send: record)
        #expect(sent.withLock { $0 }.count == 70)
        for number in numbers[70...] + later where number != numbers[85] && number != later[3] {
            acknowledgements.answer(number, .success(.committed([])), send: record)
        }
        #expect(sent.withLock { $0 } == Array(0..<110))
        await acknowledgements.barrier()
        #expect(acknowledgements.append(Self.entry(110)) == 110)
    }
}
