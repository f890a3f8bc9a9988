import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase

/// `WriteSessions` keeps a client's applied writes without a set while it has at most one, and takes each client's
/// hash from its origin: over random sequences of writes it must answer and remember exactly what the plain model
/// below (the sessions as they were kept before, one `Set` per client, the id hashed where asked) does.
@Suite struct WriteSessionsDifferentialTests {
    /// The sessions as kept before: per client, the settled mark, a set of the applied writes above it and the
    /// clock of its latest write; silent clients swept by the same retention and interval.
    private struct Model {
        var sessions: [String: WriteSessions.Session] = [:]
        var clock: Int64 = 0

        func contains(_ origin: WriteOrigin) -> Bool {
            guard let session = self.sessions[origin.client] else { return false }
            return origin.sequence < session.settledBelow || session.applied.contains(origin.sequence)
        }

        mutating func record(_ record: WriteSessions.Record) {
            let before = self.clock
            self.clock = max(self.clock, record.now)
            var session =
                self.sessions[record.origin.client]
                ?? WriteSessions.Session(
                    settledBelow: 0, applied: [], lastUsed: self.clock)
            var applied = session.applied
            let origin = record.origin
            if origin.settledBelow > session.settledBelow {
                session.settledBelow = origin.settledBelow
                applied = applied.filter { $0 >= origin.settledBelow }
            }
            if origin.sequence >= session.settledBelow { applied.insert(origin.sequence) }
            if applied.count > WriteSessions.appliedCapacity {
                applied.subtract(applied.sorted().prefix(applied.count - WriteSessions.appliedCapacity * 7 / 8))
            }
            session.applied = applied
            session.lastUsed = self.clock
            self.sessions[origin.client] = session
            if self.clock / 60_000 != before / 60_000 {
                let horizon = self.clock - WriteSessions.retention
                self.sessions = self.sessions.filter { $0.value.lastUsed >= horizon }
            }
        }
    }

    /// Random writes of a few clients — settling as they go, settling late, never settling, resending old ones,
    /// falling silent past the retention — are answered and remembered alike by both, step by step.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func answersAndRemembersAsTheSetPerClientDid(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var sessions = WriteSessions()
        var model = Model()
        var next: [String: UInt64] = [:]
        var now: Int64 = 0
        for _ in 0..<3_000 {
            // Short ids (held inline by `String`) and long ones (held apart), each made anew for every write.
            let number = Int.random(in: 0..<6, using: &random)
            let client = number.isMultiple(of: 2) ? "c\(number)" : "a-client-id-longer-than-sixteen-\(number)"
            let newest = next[client, default: 1]
            // Mostly the client's next write; sometimes one sent again, or one far ahead.
            let sequence: UInt64
            switch Int.random(in: 0..<10, using: &random) {
            case 0: sequence = UInt64.random(in: 1...newest, using: &random)
            case 1: sequence = newest + UInt64.random(in: 1...40, using: &random)
            default: sequence = newest
            }
            next[client] = max(newest, sequence + 1)
            // Settles everything before it, nothing, or some of it.
            let settled: UInt64
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1: settled = sequence
            case 2: settled = 0
            default: settled = UInt64.random(in: 0...sequence, using: &random)
            }
            now += Int.random(in: 0..<10, using: &random) == 0 ? WriteSessions.retention / 3 : 1_000
            let origin = try WriteOrigin(client: client, sequence: sequence, settledBelow: settled)
            let probe = try WriteOrigin(
                client: client, sequence: UInt64.random(in: 1...(newest + 2), using: &random), settledBelow: 0)
            #expect(sessions.contains(origin) == model.contains(origin))
            #expect(sessions.contains(probe) == model.contains(probe))
            let record = WriteSessions.Record(origin: origin, now: now)
            sessions.record(record)
            model.record(record)
            #expect(sessions.sessions == model.sessions)
            #expect(sessions.clock == model.clock)
        }
    }

    /// A session holds one form per set of applied writes: made from a set or recorded up to it, equal contents
    /// compare equal, and the set reads back as given.
    @Test func equalContentsAreEqualSessions() throws {
        for applied in [[], [7], [7, 9], [3, 7, 9]] as [Set<UInt64>] {
            let given = WriteSessions.Session(settledBelow: 2, applied: applied, lastUsed: 5)
            var recorded = WriteSessions.Session(settledBelow: 2, applied: [], lastUsed: 5)
            for sequence in applied {
                recorded.record(try WriteOrigin(client: "a", sequence: sequence, settledBelow: 2), clock: 5)
            }
            #expect(given == recorded)
            #expect(given.applied == applied)
        }
    }

    /// The hash an origin carries is the id's stable hash, and stays so when the id is changed.
    @Test func anOriginCarriesItsClientsStableHash() throws {
        var origin = try WriteOrigin(client: "abc", sequence: 1, settledBelow: 0)
        #expect(origin.clientHash == WriteOrigin.stableHash(of: "abc"))
        // FNV-1a of "abc", as every process computes it.
        #expect(origin.clientHash == 0xe71f_a219_0541_574b)
        origin.client = "other"
        #expect(origin.clientHash == WriteOrigin.stableHash(of: "other"))
    }
}
