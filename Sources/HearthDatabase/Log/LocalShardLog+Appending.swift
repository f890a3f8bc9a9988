import HearthStorage
import HearthSystem

extension LocalShardLog {
    /// The applied entries of one record, kept until its turn ends or it is durable: one entry, or a record's
    /// several, moved along whole.
    enum Kept {
        case one(ShardApplied)
        case several([ShardApplied])
    }

    /// What appending shares, under `LocalShardLog`'s lock: the numbering of records (the log is its write-ahead
    /// log's only producer, so it numbers them itself), the records framed for the write-ahead log and not yet
    /// queued there, and the write loop's turn under way.
    ///
    /// In a turn, a record costs this lock alone: it is encoded straight into the frames the log writes, and the
    /// turn's records are queued on the write-ahead log together at its end (`LocalShardLog.endTurn`), which its
    /// answers wait for anyway (they wait for the turn's last record).
    struct Appending {
        /// The sequence number the next record gets: one past the write-ahead log's last one, plus `batch`'s.
        private(set) var nextSequence: UInt64
        /// Records framed and not yet queued on the write-ahead log, from `nextSequence - batch.count` on.
        var batch = WALBatch()
        /// Records appended go with the write loop's turn (`LocalShardLog.holdTurns`).
        var holdsTurns = false
        /// The entries of the turn under way, in record order.
        private var turn: [ShardApplied] = []
        /// The sequence number of the turn's last record so far; nil when the turn appended nothing yet.
        private var turnSequence: UInt64?

        /// Appending after record `nextSequence - 1`.
        init(nextSequence: UInt64) {
            self.nextSequence = nextSequence
        }

        /// Numbers the next record and frames it into `batch`, its payload appended by `encode`; returns its
        /// sequence number. `now` (monotonic nanoseconds) is read only for the batch's first record. O(payload).
        mutating func frame(now: @autoclosure () -> UInt64, encoding encode: (inout [UInt8]) -> Void) -> UInt64 {
            let sequence = self.nextSequence
            self.batch.append(lsn: sequence, now: now(), encoding: encode)
            self.nextSequence += 1
            return sequence
        }

        /// Keeps the entries of record `sequence` with the turn under way, moved in (appended from their array, each
        /// was copied: every array and reference of its change retained, and released again with the array).
        mutating func keep(_ applied: consuming Kept, at sequence: UInt64) {
            switch consume applied {
            case .one(let entry):
                self.turn.append(entry)
            case .several(var entries):
                entries.reverseByMoving()
                while let entry = entries.popLast() { self.turn.append(entry) }
            }
            self.turnSequence = sequence
        }

        /// Hands the turn under way to `entries` (which must be empty) and starts the next one; returns the sequence
        /// number of the turn's last record, or nil (leaving `entries` empty) when it appended nothing. The next turn
        /// starts with room for as many entries as this one had: grown from empty, each turn reallocated its array
        /// every time it doubled.
        mutating func takeTurn(into entries: inout [ShardApplied]) -> UInt64? {
            guard let sequence = self.turnSequence else { return nil }
            swap(&entries, &self.turn)
            self.turn.reserveCapacity(entries.count)
            self.turnSequence = nil
            return sequence
        }
    }
}
