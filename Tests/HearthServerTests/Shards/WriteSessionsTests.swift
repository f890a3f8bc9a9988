import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The named writes a shard remembers: what counts as applied, what a client's settled mark lets go, and how the
/// retention and the capacities bound them, all by the recorded writes' own clock.
@Suite struct WriteSessionsTests {
    private static func record(
        _ client: String, _ sequence: UInt64, settled: UInt64 = 0, now: Int64 = 1_000
    ) throws -> WriteSessions.Record {
        WriteSessions.Record(
            origin: try WriteOrigin(client: client, sequence: sequence, settledBelow: settled), now: now)
    }

    @Test func aRecordedWriteIsKnownAndOthersAreNot() throws {
        var sessions = WriteSessions()
        sessions.record(try Self.record("a", 3))
        #expect(sessions.contains(try Self.record("a", 3).origin))
        #expect(!sessions.contains(try Self.record("a", 2).origin))
        #expect(!sessions.contains(try Self.record("a", 4).origin))
        #expect(!sessions.contains(try Self.record("b", 3).origin))
    }

    /// Below the settled mark every write counts as answered (a late copy of one is not applied), and none is kept.
    @Test func theSettledMarkForgetsAndCovers() throws {
        var sessions = WriteSessions()
        for sequence in 1...5 as ClosedRange<UInt64> { sessions.record(try Self.record("a", sequence)) }
        sessions.record(try Self.record("a", 6, settled: 4))
        #expect(sessions.sessions["a"]?.applied == [4, 5, 6])
        #expect(sessions.sessions["a"]?.settledBelow == 4)
        #expect(sessions.contains(try Self.record("a", 2).origin))
        #expect(!sessions.contains(try Self.record("a", 7).origin))
        // A mark lower than one already seen changes nothing.
        sessions.record(try Self.record("a", 7, settled: 1))
        #expect(sessions.sessions["a"]?.settledBelow == 4)
        #expect(sessions.sessions["a"]?.applied == [4, 5, 6, 7])
    }

    /// A client silent for the retention is forgotten at the next sweep of the recorded clock; an active one stays.
    @Test func silentClientsExpire() throws {
        var sessions = WriteSessions()
        sessions.record(try Self.record("old", 1, now: 0))
        sessions.record(try Self.record("busy", 1, now: 0))
        sessions.record(try Self.record("busy", 2, now: WriteSessions.retention - 1))
        sessions.record(try Self.record("new", 1, now: WriteSessions.retention + 120_000))
        #expect(Set(sessions.sessions.keys) == ["busy", "new"])
        #expect(sessions.clock == WriteSessions.retention + 120_000)
        // A write carrying an older clock reading (another leader's) does not move the clock back.
        sessions.record(try Self.record("late", 1, now: 5))
        #expect(sessions.sessions["late"]?.lastUsed == WriteSessions.retention + 120_000)
    }

    /// Past the capacity the least recently used clients go first, down to seven eighths of it.
    @Test func theLeastRecentlyUsedGoPastTheCapacity() throws {
        var sessions = WriteSessions()
        for index in 0..<WriteSessions.capacity {
            sessions.record(try Self.record("c\(index)", 1, now: Int64(index / 100)))
        }
        #expect(sessions.sessions.count == WriteSessions.capacity)
        sessions.record(try Self.record("last", 1, now: Int64(WriteSessions.capacity)))
        #expect(sessions.sessions.count == WriteSessions.capacity * 7 / 8)
        #expect(sessions.sessions["last"] != nil)
        #expect(sessions.sessions["c0"] == nil)
        #expect(sessions.sessions["c\(WriteSessions.capacity - 1)"] != nil)
    }

    /// A client that never settles keeps its newest writes, up to the per-client capacity (past it, the oldest
    /// eighth goes at once), never a write it did not send.
    @Test func aClientThatNeverSettlesKeepsItsNewest() throws {
        var sessions = WriteSessions()
        let capacity = UInt64(WriteSessions.appliedCapacity)
        for sequence in 1...capacity { sessions.record(try Self.record("a", sequence)) }
        #expect(sessions.sessions["a"]?.applied.count == WriteSessions.appliedCapacity)
        sessions.record(try Self.record("a", capacity + 1))
        let kept = UInt64(WriteSessions.appliedCapacity * 7 / 8)
        #expect(sessions.sessions["a"]?.applied.count == Int(kept))
        #expect(sessions.sessions["a"]?.applied.min() == capacity + 2 - kept)
        #expect(!sessions.contains(try Self.record("a", capacity + 1 - kept).origin))
        #expect(sessions.contains(try Self.record("a", capacity + 1).origin))
        #expect(!sessions.contains(try Self.record("a", capacity + 2).origin))
    }

    /// Sessions as a snapshot restores them evolve exactly as the ones they were taken from.
    @Test func restoredSessionsEvolveTheSame() throws {
        var random = SeededRandom(seed: 7)
        var live = WriteSessions()
        var restored: WriteSessions?
        for step in 0..<2_000 {
            let client = "c\(Int.random(in: 0..<20, using: &random))"
            let sequence = UInt64.random(in: 1...400, using: &random)
            let settled = UInt64.random(in: 0...sequence, using: &random)
            let record = try Self.record(client, sequence, settled: settled, now: Int64(step) * 60_000)
            live.record(record)
            restored?.record(record)
            if step == 700 { restored = WriteSessions(sessions: live.sessions) }
        }
        #expect(restored == live)
    }
}
