import HearthSystem

extension WriteAheadLog {
    /// Starts the writer thread with the log's I/O state (or, in manual mode, keeps it for `writePending()`); a
    /// thread that cannot start fails the log.
    func spawnWriter(_ writer: SegmentWriter) {
        guard self.configuration.writer == .dedicatedThread else {
            self.manualWriter.withLock { $0 = writer }
            return
        }
        do {
            try DedicatedThread.start(name: "hearth-wal") { [self] in
                self.runWriter(writer)
            }.detach()
        } catch {
            writer.abandon()
            self.fail(StorageError(.io, error.message))
            self.finishWriter()
        }
    }

    /// With `WALWriterMode.manual`: writes, syncs and publishes what is pending now (or, once the log is closing or
    /// failed, stops the writer), on the caller's thread, exactly as the writer thread would.
    /// - Returns: whether there was anything to do.
    @discardableResult
    package func writePending() -> Bool {
        self.manualWriter.withLock { slot in
            guard let writer = slot else { return false }
            let step = self.state.withLock {
                $0.nextStep(self.configuration, now: MonotonicClock.now(), frames: &writer.frames)
            }
            switch step {
            case .sleep, .gather:
                return false
            case .write, .exit:
                if !self.carryOut(step, writer: writer) { slot = nil }
                return true
            }
        }
    }

    /// The writer thread's loop: take pending records, write and sync them, publish them, resume their waiters.
    private func runWriter(_ writer: SegmentWriter) {
        while true {
            let step = self.state.withLock {
                $0.nextStep(self.configuration, now: MonotonicClock.now(), frames: &writer.frames)
            }
            switch step {
            case .sleep:
                self.wakeSignal.wait()
            case .gather(let deadline):
                self.wakeSignal.wait(untilNanoseconds: deadline)
            case .write, .exit:
                guard self.carryOut(step, writer: writer) else { return }
            }
        }
    }

    /// Writes a batch, or stops the writer; false once the writer has stopped (after `.exit` or a failure). After a
    /// batch is published (its waiters resumed), zeros ahead of the segment's end when they run short, so the
    /// next batch waits behind at most one chunk of them.
    private func carryOut(_ step: WriterStep, writer: SegmentWriter) -> Bool {
        switch step {
        case .sleep, .gather:
            return true
        case .write(let lsns):
            do {
                try writer.append(lsns)
            } catch {
                writer.abandon()
                self.fail(error)
                self.stopWriter(writer)
                return false
            }
            self.publish(lsns, writer: writer)
            do {
                try writer.zeroAhead()
            } catch {
                writer.abandon()
                self.fail(error)
                self.stopWriter(writer)
                return false
            }
            return true
        case .exit:
            let isFailed = self.state.withLock { $0.failure != nil }
            if isFailed {
                writer.abandon()
            } else {
                do {
                    try writer.close()
                } catch {
                    self.fail(error)
                }
            }
            self.stopWriter(writer)
            return false
        }
    }

    /// Records the writer's last statistics and marks it stopped.
    private func stopWriter(_ writer: SegmentWriter) {
        let statistics = writer.statistics
        self.state.withLock { $0.statistics = statistics }
        self.finishWriter()
    }

    /// Runs `onDurable` for a written batch, then marks it durable and resumes its waiters.
    private func publish(_ lsns: ClosedRange<UInt64>, writer: SegmentWriter) {
        self.onDurable(lsns)
        let newSegments = writer.takeNewSegments()
        let statistics = writer.statistics
        let waiters = self.state.withLock { state in
            state.durableLSN = lsns.upperBound
            if !newSegments.isEmpty { state.segments.append(contentsOf: newSegments) }
            state.statistics = statistics
            return state.takeWaiters(in: lsns)
        }
        for waiter in waiters {
            waiter.resume(.success(()))
        }
    }

    /// Records a fatal error and fails every waiter; later waits and enqueues see it too.
    func fail(_ error: StorageError) {
        let (waiters, failure) = self.state.withLock { state in
            let failure = state.failure ?? error
            state.failure = failure
            state.dropPending()
            return (state.takeAllWaiters(), failure)
        }
        for waiter in waiters {
            waiter.resume(.failure(failure))
        }
    }

    /// Marks the writer stopped, fails what can no longer be written, and resumes `close()` callers.
    private func finishWriter() {
        let closed = StorageError(
            .closed,
            "The write-ahead log in \(self.directory) is closed; the write was not made durable. "
                + "Reopen the log (restart the node) to continue writing."
        )
        let (waiters, closers, failure) = self.state.withLock { state in
            state.phase = .stopped
            if state.failure == nil {
                state.failure = closed
            }
            state.dropPending()
            let closers = state.closeWaiters
            state.closeWaiters.removeAll()
            return (state.takeAllWaiters(), closers, state.failure ?? closed)
        }
        for waiter in waiters {
            waiter.resume(.failure(failure))
        }
        for closer in closers {
            closer.resume()
        }
    }
}
