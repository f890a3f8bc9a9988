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
                    state.waiters[lsn, default: []].append(
                        Waiter(id: id, resume: { continuation.resume(returning: $0) }))
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
            waiter?.resume(.failure(Self.cancelled(lsn)))
        }
        try result.get()
    }

    /// Calls `body` once record `lsn` is written (and synced per the fsync mode) and `onDurable` has run for it, or
    /// with the log's fatal `StorageError` if writing failed or the log closed first: at once when either is known,
    /// else on the writer thread (so `body` must be short and must not block). For a caller that hands a whole
    /// batch's answers on without a task waiting for each (the single node's write loop).
    public func whenDurable(_ lsn: UInt64, _ body: @escaping @Sendable (Result<Void, StorageError>) -> Void) {
        let immediate: Result<Void, StorageError>? = self.state.withLock { state in
            if lsn <= state.durableLSN { return .success(()) }
            if let failure = state.failure { return .failure(failure) }
            defer { state.nextWaiterID += 1 }
            state.waiters[lsn, default: []].append(Waiter(id: state.nextWaiterID, resume: body))
            return nil
        }
        if let immediate { body(immediate) }
    }

    private static func cancelled(_ lsn: UInt64) -> StorageError {
        StorageError(
            .cancelled,
            "Stopped waiting for LSN \(lsn) to become durable because the task was cancelled; "
                + "the write may still become durable."
        )
    }
}
