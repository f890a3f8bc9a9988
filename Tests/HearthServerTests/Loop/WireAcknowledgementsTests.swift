import HearthCore
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
