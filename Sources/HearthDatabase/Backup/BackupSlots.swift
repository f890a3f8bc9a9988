import Synchronization

/// How many backups a node streams at once. Each holds a thread, a captured version of the whole tree (kept alive
/// while the client reads it) and up to `BackupStream.queuedBytesLimit` of queued bytes; on a node whose rules let
/// everyone read, anyone may ask for one, so they are bounded rather than one per request.
package final class BackupSlots: Sendable {
    /// Backups a node streams at once.
    static let defaultLimit = 2

    package let limit: Int
    private let taken = Mutex(0)

    package init(limit: Int = BackupSlots.defaultLimit) {
        self.limit = limit
    }

    /// A slot, held until the returned token is released (dropped); nil when every slot is taken.
    package func take() -> Slot? {
        let isTaken = self.taken.withLock { taken in
            guard taken < self.limit else { return false }
            taken += 1
            return true
        }
        return isTaken ? Slot(self) : nil
    }

    /// One backup's slot: given back when the last holder drops it, whichever way the backup ends (sent, failed,
    /// refused, or its connection gone before it started).
    package final class Slot: Sendable {
        private let slots: BackupSlots

        fileprivate init(_ slots: BackupSlots) {
            self.slots = slots
        }

        deinit {
            self.slots.taken.withLock { $0 -= 1 }
        }
    }
}
