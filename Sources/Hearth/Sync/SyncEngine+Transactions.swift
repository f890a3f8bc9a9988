package import HearthCore
import HearthWire

/// Transactions: run locally, sent as compare-and-set puts, rerun on stale data (Firebase's `Repo` transaction
/// queue).
///
/// A transaction runs at once on the value the client shows and, unless `applyLocally` is false, shows its result.
/// Transactions at one location and below form a queue sent together in one `put` at the highest of their paths,
/// with the hash of the value they started from; while a queue is out, new transactions there wait. On `datastale`
/// each reruns on the newer value, up to 25 sends, then fails with `maxretry`; a set at, above or below a
/// transaction makes it fail with `set`.
extension SyncEngine {
    /// The most times a transaction is sent before it fails with `maxretry`.
    package static let maximumTransactionRetries = 25

    /// `runTransactionBlock`: runs `update` on the current value and queues the result.
    package mutating func runTransaction(
        _ id: TransactionID,
        at path: Path,
        applyLocally: Bool = true,
        now: Int64,
        update: @escaping TransactionUpdate
    ) -> SyncOutput {
        self.producing { engine in
            engine.lastNow = now
            engine.pin(ViewKey(path: path))
            let input = engine.latestState(at: path)
            guard case .commit(let value) = update(input) else {
                engine.unpin(ViewKey(path: path))
                engine.complete(.transactionCompleted(id, .aborted(input)))
                return
            }
            let resolved = value.resolved(existing: input, now: engine.estimatedServerTime(now: now))
            let writeID = engine.makeWriteID()
            engine.writes.append(
                PendingWrite(id: writeID, path: path, change: .overwrite(resolved), isVisible: applyLocally)
            )
            let order = engine.nextTransactionOrder
            engine.nextTransactionOrder += 1
            engine.transactions.append(
                TransactionRecord(
                    id: id, path: path, update: update, applyLocally: applyLocally, order: order,
                    writeID: writeID, input: input, output: value, resolved: resolved
                )
            )
            engine.refreshViews(near: path)
            engine.sendReadyTransactions()
        }
    }

    /// The value at `path` with the server cache and every pending write (hidden ones too) but `excluding`.
    func latestState(at path: Path, excluding: Set<WriteID> = []) -> Node {
        let known = self.writes.apply(
            to: self.server.tree.subtree(at: path),
            at: path,
            includeHidden: true,
            excluding: excluding
        )
        return known.node
    }

    /// Paths holding a transaction with none above them: each is one queue.
    private var transactionQueueRoots: [Path] {
        let paths = Set(self.transactions.map(\.path))
        return paths.filter { path in !paths.contains { $0 != path && $0.contains(path) } }.sorted()
    }

    /// The transactions at or below `root`, oldest first.
    private func queue(at root: Path) -> [Int] {
        self.transactions.indices.filter { root.contains(self.transactions[$0].path) }
            .sorted { self.transactions[$0].order < self.transactions[$1].order }
    }

    /// Sends every queue whose transactions have all run and none is out, unless it waits out a back-off or,
    /// connected, for the first answer of a listen at its location (a send before the server's value is known
    /// would only come back stale).
    mutating func sendReadyTransactions() {
        for root in self.transactionQueueRoots where !self.isHeld(root) && !self.awaitsFirstData(root) {
            let queue = self.queue(at: root)
            guard queue.allSatisfy({ if case .run = self.transactions[$0].status { true } else { false } }) else {
                continue
            }
            let latest = self.latestState(at: root, excluding: Set(queue.map { self.transactions[$0].writeID }))
            var combined = WriteValue(node: latest)
            for index in queue {
                let transaction = self.transactions[index]
                guard let relative = root.relativePath(to: transaction.path) else { continue }
                combined.place(transaction.output, at: relative)
                self.transactions[index].status = .sent
                self.transactions[index].retries += 1
            }
            let sendID = self.makeWriteID()
            self.transactionSends[sendID] = queue.map { self.transactions[$0].id }
            let put = WireRequest.put(
                path: root.description, data: combined.jsonValue(), hash: latest.hash, origin: self.origin(of: sendID))
            self.send(.write(sendID, put))
        }
    }

    /// The server answered a queue's put.
    mutating func transactionPutAnswered(_ sendID: WriteID, _ response: WireResponse) {
        guard let ids = self.transactionSends.removeValue(forKey: sendID) else { return }
        let sent = self.transactions.indices.filter { ids.contains(self.transactions[$0].id) }
        guard let first = sent.first else { return }
        let root = sent.map { self.transactions[$0].path }.reduce(self.transactions[first].path) {
            $0.commonAncestor(with: $1)
        }
        switch response {
        case .ok:
            let done = sent.map { self.transactions[$0] }
            self.transactions.removeAll { ids.contains($0.id) }
            for transaction in done {
                self.settleConfirmedWrite(transaction.writeID)
            }
            self.refreshViews(near: root)
            for transaction in done {
                self.unpin(ViewKey(path: transaction.path))
                self.complete(.transactionCompleted(transaction.id, .committed(transaction.resolved)))
            }
            self.sendReadyTransactions()
        case .failure(let error):
            if error.code == .dataStale {
                let staleAnswers = sent.map { self.transactions[$0].retries }.max() ?? 1
                let delay = self.transactionBackoff.delay(afterStaleAnswers: staleAnswers, using: &self.random)
                if delay > 0 { self.transactionHolds[root] = self.lastNow + delay }
            }
            for index in sent {
                switch self.transactions[index].status {
                case .sentNeedsAbort(let reason):
                    self.transactions[index].status = .needsAbort(reason)
                default:
                    self.transactions[index].status = error.code == .dataStale ? .run : .needsAbort(error)
                }
            }
            self.rerunTransactions(near: root)
        }
    }

    /// Reruns the queue holding `path` (or every transaction below it): after stale data, new server data, or a
    /// set that aborted some of them. Transactions still out wait for their answer.
    mutating func rerunTransactions(near path: Path) {
        guard !self.transactions.isEmpty else { return }
        let root = self.transactionQueueRoots.first { $0.contains(path) } ?? path
        let queue = self.queue(at: root)
        guard !queue.isEmpty, !self.isHeld(root) else { return }
        var excluded = Set(
            queue.compactMap { index -> WriteID? in
                if case .run = self.transactions[index].status { return self.transactions[index].writeID }
                return nil
            }
        )
        var finished: [(TransactionRecord, TransactionOutcome)] = []
        for index in queue {
            var transaction = self.transactions[index]
            switch transaction.status {
            case .sent, .sentNeedsAbort:
                continue
            case .needsAbort(let error):
                finished.append((transaction, .failed(error)))
            case .run where transaction.retries >= Self.maximumTransactionRetries:
                finished.append((transaction, .failed(SyncErrors.maxRetries)))
            case .run:
                let input = self.latestState(at: transaction.path, excluding: excluded)
                transaction.input = input
                guard case .commit(let value) = transaction.update(input) else {
                    finished.append((transaction, .aborted(input)))
                    continue
                }
                let resolved = value.resolved(existing: input, now: self.estimatedServerTime(now: self.lastNow))
                let oldWrite = transaction.writeID
                excluded.remove(oldWrite)
                _ = self.writes.remove(oldWrite)
                transaction.writeID = self.makeWriteID()
                transaction.output = value
                transaction.resolved = resolved
                self.writes.append(
                    PendingWrite(
                        id: transaction.writeID, path: transaction.path, change: .overwrite(resolved),
                        isVisible: transaction.applyLocally
                    )
                )
                self.transactions[index] = transaction
            }
        }
        self.finish(finished)
        self.refreshViews(near: root)
        for (transaction, outcome) in finished {
            self.unpin(ViewKey(path: transaction.path))
            self.complete(.transactionCompleted(transaction.id, outcome))
        }
        self.sendReadyTransactions()
    }

    /// Whether the queue at `root` waits out a back-off (one set at, above or below it).
    private func isHeld(_ root: Path) -> Bool {
        self.transactionHolds.contains { path, until in
            until > self.lastNow && (path.contains(root) || root.contains(path))
        }
    }

    /// Whether, connected, the location's data has not come yet: a whole listen covering it is unanswered and
    /// none covering it is answered.
    private func awaitsFirstData(_ root: Path) -> Bool {
        guard self.info.isConnected else { return false }
        var pending = false
        for (key, answered) in self.listens where key.tag == nil && key.path.contains(root) {
            if answered { return false }
            pending = true
        }
        return pending
    }

    /// Removes finished transactions and their local writes.
    private mutating func finish(_ finished: [(TransactionRecord, TransactionOutcome)]) {
        let ids = Set(finished.map(\.0.id))
        for (transaction, _) in finished {
            _ = self.writes.remove(transaction.writeID)
        }
        self.transactions.removeAll { ids.contains($0.id) }
    }

    /// A set or update at `path`: transactions at, above or below it fail with `set` (those out fail when their
    /// answer comes, unless the server took them), then the rest of their queue reruns on the new value.
    mutating func abortTransactions(near path: Path) {
        guard !self.transactions.isEmpty else { return }
        var finished: [(TransactionRecord, TransactionOutcome)] = []
        for index in self.transactions.indices {
            let transaction = self.transactions[index]
            guard transaction.path.contains(path) || path.contains(transaction.path) else { continue }
            switch transaction.status {
            case .sent:
                self.transactions[index].status = .sentNeedsAbort(SyncErrors.overriddenBySet)
            case .run, .needsAbort:
                finished.append((transaction, .failed(SyncErrors.overriddenBySet)))
            case .sentNeedsAbort:
                break
            }
        }
        self.finish(finished)
        for (transaction, outcome) in finished {
            self.refreshViews(near: transaction.path)
            self.unpin(ViewKey(path: transaction.path))
            self.complete(.transactionCompleted(transaction.id, outcome))
        }
        self.rerunTransactions(near: path)
    }
}
