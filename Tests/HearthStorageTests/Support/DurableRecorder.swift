import HearthStorage
import Synchronization

/// Collects what `onDurable` receives, so tests can check order and "callback before waiter".
final class DurableRecorder: Sendable {
    private let lsns = Mutex<[UInt64]>([])
    private let calls = Mutex(0)

    var callback: @Sendable (ClosedRange<UInt64>) -> Void {
        { [self] batch in
            self.calls.withLock { $0 += 1 }
            self.lsns.withLock { $0.append(contentsOf: batch) }
        }
    }

    /// Every LSN `onDurable` received, in the order it received them.
    var received: [UInt64] { self.lsns.withLock { $0 } }
    var callCount: Int { self.calls.withLock { $0 } }

    func contains(_ lsn: UInt64) -> Bool {
        self.lsns.withLock { $0.contains(lsn) }
    }
}

/// A deterministic payload for record `lsn`, of a length that varies with it.
func samplePayload(_ lsn: UInt64, length: Int? = nil) -> [UInt8] {
    let count = length ?? Int(lsn % 37) + 1
    return (0..<count).map { UInt8(truncatingIfNeeded: lsn &* 31 &+ UInt64($0)) }
}

/// Every record from `replay(after:)`.
func replayAll(_ log: WriteAheadLog, after lsn: UInt64 = 0) throws -> [WALRecord] {
    var records: [WALRecord] = []
    try log.replay(after: lsn) { records.append($0) }
    return records
}

extension WALConfiguration {
    static func testing(_ fsync: FsyncMode = .off, segmentBytes: Int = 64 * 1024 * 1024) -> WALConfiguration {
        var configuration = WALConfiguration()
        configuration.fsync = fsync
        configuration.segmentBytes = segmentBytes
        return configuration
    }
}
