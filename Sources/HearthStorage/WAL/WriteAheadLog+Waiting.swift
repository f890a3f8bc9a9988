import HearthSystem

extension WriteAheadLog {
    /// Returns once record `lsn` is written (and synced per the fsync mode) and `onDurable` has run for it.
    ///
    /// - Throws: the log's fatal `StorageError` if writing failed or the log closed first; `.cancelled` if the
    ///   waiting task is cancelled (the record itself may still become durable).
    public func waitUntilDurable(_ lsn: UInt64) async throws(StorageError) {
        enum Registration {
            case done(Result<Void, StorageError>)
            case registered(id: UInt64)
        }
        let fastPath: Result<Void, StorageError>? = self.state.withLock { state in
            if lsn <= state.durableLSN { return .success(()) }
            if let failure = state.failure { return .failure(failure) }
            return nil
        }
        if let fastPath {
            return try fastPath.get()
        }
        let id = self.state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, StorageError>, Never>) in
                let immediate: Result<Void, StorageError>? = self.state.withLock { state in
                    if lsn <= state.durableLSN { return .success(()) }
                    if let failure = state.failure { return .failure(failure) }
                    if Task.isCancelled { return .failure(Self.cancelled(lsn)) }
                    state.waiters[lsn, default: []].append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                }
            }
        } onCancel: {
            let waiter: Waiter? = self.state.withLock { state in
                guard var waiting = state.waiters[lsn],
                    let index = waiting.firstIndex(where: { $0.id == id })
                else { return nil }
                let waiter = waiting.remove(at: index)
                state.waiters[lsn] = waiting.isEmpty ? nil : waiting
                return waiter
            }
            waiter?.continuation.resume(returning: .failure(Self.cancelled(lsn)))
        }
        try result.get()
    }

    private static func cancelled(_ lsn: UInt64) -> StorageError {
        StorageError(
            .cancelled,
            "Stopped waiting for LSN \(lsn) to become durable because the task was cancelled; "
                + "the write may still become durable."
        )
    }
}
