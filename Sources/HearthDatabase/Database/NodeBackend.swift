package import HearthNode
package import HearthStorage
package import HearthSystem

/// What a node runs under its front ends: a single node's `Database`, or a cluster member's `ClusterNode`. The
/// runtime serves REST, SSE and the realtime protocol over either in the same way.
package protocol NodeBackend: DatabaseAccess {
    /// Runs the backend's own work (snapshots; or replication and membership) until the calling task is cancelled.
    /// Returns earlier only when the node must stop (its log failed), after logging why.
    func runServices(log: Log) async

    /// Flushes and closes everything, once `runServices` has returned; every acknowledged write is on disk after.
    func close(log: Log) async

    /// What the backend's write-ahead log has done (for `/.metrics`).
    var walStatistics: WALStatistics { get }

    /// Adds the figures only this kind of node has to `/.metrics` (a cluster member's replication figures).
    func registerOwnFigures(in metrics: Metrics)

    /// Where the front ends' compare-and-sets take turns when not in a gate of the node's own: a cluster member's,
    /// at the leaders of their locations' shards.
    var sharedConditionalWriteTurns: (any ConditionalWriteTurns)? { get }
}

extension Database: NodeBackend {
    package func runServices(log: Log) async {
        let interval = self.snapshotInterval
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.runSnapshots(log: log)
                return false
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(interval))) != nil {
                    self.snapshotIfChanged()
                }
                return false
            }
            group.addTask {
                await self.coordinator.forgetFinishedDecisionsUntilCancelled()
                return false
            }
            group.addTask {
                guard let error = await self.waitForStorageFailure() else { return false }
                log.critical(
                    "wal.failed",
                    ["error": "\(error)", "action": "stopping the node; nothing further can be made durable"])
                return true
            }
            while let mustStop = await group.next() {
                if mustStop { group.cancelAll() }
            }
        }
    }

    package func registerOwnFigures(in metrics: Metrics) {}

    package var sharedConditionalWriteTurns: (any ConditionalWriteTurns)? { nil }

    package func close(log: Log) async {
        await self.close()
        log.info("node.stopped", ["wal_fsyncs": "\(self.walStatistics.fsyncs)"])
    }
}
