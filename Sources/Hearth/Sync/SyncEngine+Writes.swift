package import HearthCore
package import HearthWire

/// The user's writes: shown at once, sent in order, confirmed or reverted by the server.
extension SyncEngine {
    /// `setValue` (an empty value removes): shown at once with server values estimated, sent as a `put`. Aborts
    /// transactions at, above and below `path` with Firebase's `set` reason.
    /// - Parameters:
    ///   - now: the local clock in milliseconds since the Unix epoch, for server-value estimates.
    ///   - logged: the origin the write was first sent with, when it is made again from the write log.
    package mutating func set(_ value: WriteValue, at path: Path, now: Int64, logged: WriteOrigin? = nil)
        -> (WriteID, SyncOutput)
    {
        var id = WriteID(0)
        let output = self.producing { engine in
            engine.lastNow = now
            let resolved = value.resolved(
                existing: engine.visibleNode(at: path),
                now: engine.estimatedServerTime(now: now)
            )
            id = engine.makeWriteID()
            engine.writes.append(PendingWrite(id: id, path: path, change: .overwrite(resolved), isVisible: true))
            let origin = engine.origin(of: id, logged: logged)
            engine.send(.write(id, .put(path: path.description, data: value.jsonValue(), hash: nil, origin: origin)))
            engine.refreshViews(near: path)
            engine.abortTransactions(near: path)
        }
        return (id, output)
    }

    /// `updateChildValues`: every relative path gets its value in one atomic write, sent as a `merge`.
    /// - Precondition: `values` is not empty and no path in it contains another (the API layer checks both).
    package mutating func update(
        _ values: [(relative: Path, value: WriteValue)], at path: Path, now: Int64, logged: WriteOrigin? = nil
    ) -> (WriteID, SyncOutput) {
        var id = WriteID(0)
        let output = self.producing { engine in
            engine.lastNow = now
            let serverTime = engine.estimatedServerTime(now: now)
            var entries: [MergeEntry] = []
            var data: [JSONKey: JSONValue] = [:]
            for (relative, value) in values {
                let target = path.appending(relative)
                let resolved = value.resolved(existing: engine.visibleNode(at: target), now: serverTime)
                entries.append(MergeEntry(relative: relative, node: resolved))
                data[JSONKey(relative.slashless)] = value.jsonValue()
            }
            id = engine.makeWriteID()
            engine.writes.append(PendingWrite(id: id, path: path, change: .merge(entries), isVisible: true))
            engine.send(
                .write(id, .merge(path: path.description, data: data, origin: engine.origin(of: id, logged: logged))))
            engine.refreshViews(near: path)
            for (relative, _) in values {
                engine.abortTransactions(near: path.appending(relative))
            }
        }
        return (id, output)
    }

    /// `setPriority`: sent as a `put` to `path/.priority`; shown where the location holds data.
    package mutating func setPriority(_ priority: Priority?, at path: Path, logged: WriteOrigin? = nil)
        -> (WriteID, SyncOutput)
    {
        var id = WriteID(0)
        let output = self.producing { engine in
            id = engine.makeWriteID()
            engine.writes.append(PendingWrite(id: id, path: path, change: .priority(priority), isVisible: true))
            let target = path.isRoot ? "/.priority" : path.description + "/.priority"
            let data = priority?.jsonValue ?? .null
            engine.send(
                .write(id, .put(path: target, data: data, hash: nil, origin: engine.origin(of: id, logged: logged))))
            engine.refreshViews(near: path)
        }
        return (id, output)
    }

    /// The server answered a plain write: it leaves the pending layer (confirmed, or reverted with the error).
    /// `purgeOutstandingWrites`: every write and transaction not yet confirmed fails with `write_canceled` and its
    /// local events are reverted; the connection forgets them. A write already sent may still be applied by the
    /// server, as with Firebase; its data then arrives like any other client's.
    package mutating func purgeWrites() -> SyncOutput {
        self.producing { engine in
            let transactions = engine.transactions
            let transactionWrites = Set(transactions.map(\.writeID))
            engine.transactions = []
            engine.transactionSends = [:]
            engine.transactionHolds = [:]
            for write in engine.writes.writes where !write.isConfirmed {
                _ = engine.writes.remove(write.id)
                engine.refreshViews(near: write.path)
                if !transactionWrites.contains(write.id) {
                    engine.complete(.writeCompleted(write.id, SyncErrors.writeCanceled))
                }
            }
            for transaction in transactions {
                engine.unpin(ViewKey(path: transaction.path))
                engine.complete(.transactionCompleted(transaction.id, .failed(SyncErrors.writeCanceled)))
            }
            engine.send(.purgeWrites)
        }
    }

    mutating func writeAnswered(_ id: WriteID, _ response: WireResponse) {
        guard let write = self.writes.write(id), !write.isConfirmed else { return }
        var failure: WireProtocolError?
        switch response {
        case .ok:
            self.settleConfirmedWrite(id)
        case .failure(let error):
            failure = error
            _ = self.writes.remove(id)
            self.rerunTransactions(near: write.path)
        }
        self.refreshViews(near: write.path)
        self.complete(.writeCompleted(id, failure))
    }

    /// A confirmed write leaves the layer, unless a listen near it is still unanswered: the server's data for it
    /// has not come yet, and dropping the write now would take its local events back only to raise them again.
    /// It stays, marked confirmed, until those listens are answered. (It never goes into the server cache: the
    /// hash a listen was sent with must stay the hash of what the cache holds.)
    mutating func settleConfirmedWrite(_ id: WriteID) {
        guard let write = self.writes.write(id) else { return }
        if self.listens.contains(where: { key, answered in !answered && key.path.isRelated(to: write.path) }) {
            self.writes.confirm(id)
        } else {
            _ = self.writes.remove(id)
        }
    }

    /// Drops the confirmed writes no unanswered listen waits for any more.
    mutating func dropSettledWrites() {
        for write in self.writes.writes where write.isConfirmed {
            self.settleConfirmedWrite(write.id)
            if self.writes.write(write.id) == nil { self.refreshViews(near: write.path) }
        }
    }
}

extension Path {
    /// True when one of the paths contains the other.
    func isRelated(to other: Path) -> Bool {
        self.contains(other) || other.contains(self)
    }
}
