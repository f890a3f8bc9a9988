import Foundation
import HearthSystem
import HearthTestKit
import Testing

/// A fourth `hearth serve --join` process joins three running members and takes replicas, survives a SIGKILL by
/// restarting from its data directory alone, then `hearth cluster remove` moves everything off it and drops it;
/// no write is lost on the way, and a removal below the replication factor is refused.
@Suite(.serialized) struct ClusterJoinProcessTests {
    /// A write through `id`, retried while leadership moves (503); whether it was acknowledged.
    private func write(_ cluster: ProcessCluster, _ id: String, _ target: String, _ body: String) async -> Bool {
        await eventually(seconds: 60, every: 0.1) {
            (try? await cluster.request(id, "PUT", target, body: body).status) == 200
        }
    }

    private func cluster(_ cluster: ProcessCluster, _ id: String) async -> [String: Any]? {
        guard let answer = try? await cluster.request(id, "GET", "/.cluster"), answer.status == 200 else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
    }

    /// Whether `id`'s view has every group at its target replica set.
    private func isSettled(_ cluster: ProcessCluster, _ id: String) async -> Bool {
        guard let rebalancing = await self.cluster(cluster, id)?["rebalancing"] as? [String: Any] else { return false }
        return (rebalancing["groups"] as? Int) == (rebalancing["settled"] as? Int)
    }

    private func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ProcessCluster.hearth(arguments)
    }

    @Test(.timeLimit(.minutes(3))) func aNodeJoinsRestartsAndIsRemoved() async throws {
        let cluster = try await ProcessCluster(nodes: 3)
        defer { cluster.terminateAll() }
        #expect(await eventually(seconds: 60, every: 0.1) { await cluster.areReady() })
        for item in 1...10 {
            #expect(await self.write(cluster, "n1", "/items/k\(item).json", "\(item)"))
        }

        try await cluster.join("n4", through: "n2")
        #expect(await eventually(seconds: 60, every: 0.1) { await cluster.areReady(["n4"]) })
        #expect(await eventually(seconds: 60, every: 0.1) { await self.isSettled(cluster, "n1") })
        let members = (await self.cluster(cluster, "n1")?["members"] as? [[String: Any]])?.compactMap {
            $0["id"] as? String
        }
        #expect(members == ["n1", "n2", "n3", "n4"])
        let shards = await self.cluster(cluster, "n1")?["shards"] as? [[String: Any]] ?? []
        #expect(shards.contains { ($0["replicas"] as? [String])?.contains("n4") == true })
        // n4 serves what was written before it joined once its replicas have applied it.
        #expect(
            await eventually(seconds: 30) { (try? await cluster.request("n4", "GET", "/items/k10.json").text) == "10" })
        let metrics = try await cluster.request("n1", "GET", "/.metrics").text
        #expect(metrics.contains(#"hearth_cluster_members{state="active"} 4"#))
        #expect(metrics.contains("hearth_cluster_groups_moving 0"))
        // Every member's release shows in n1's `/.cluster`: its own, and each peer's as its hello announced it.
        #expect(
            await eventually(seconds: 30) {
                let entries = await self.cluster(cluster, "n1")?["members"] as? [[String: Any]] ?? []
                return entries.count == 4 && entries.allSatisfy { ($0["release"] as? String) == HearthVersion.release }
            })
        #expect(await self.cluster(cluster, "n1")?["release"] as? String == HearthVersion.release)
        for item in 11...15 {
            #expect(await self.write(cluster, "n4", "/items/k\(item).json", "\(item)"))
        }

        // Killed and restarted with nothing but its data directory, n4 is a member again.
        await cluster.stop("n4", signal: SIGKILL)
        // While n4 is down the cluster is not caught up, even for a wait that names only n1 (which is ready).
        let early = try await self.hearth([
            "cluster", "wait", "--config", cluster.configurationPath, "--caught-up", "--within", "2", "n1",
        ])
        #expect(early.status == 1, "\(early.output)")
        #expect(early.output.contains("n4 is down"), "\(early.output)")
        try await cluster.start("n4")
        #expect(await eventually(seconds: 60, every: 0.1) { await cluster.areReady(["n4"]) })
        #expect(
            await eventually(seconds: 30) { (try? await cluster.request("n4", "GET", "/items/k15.json").text) == "15" })
        let caughtUp = try await self.hearth([
            "cluster", "wait", "--config", cluster.configurationPath, "--caught-up", "--max-lag", "0", "--within", "60",
        ])
        #expect(caughtUp.status == 0, "\(caughtUp.output)")
        #expect(caughtUp.output.contains("caught up within 0 entries: n1 n2 n3 n4"), "\(caughtUp.output)")

        let removal = try await self.hearth(["cluster", "remove", "--config", cluster.configurationPath, "n4"])
        #expect(removal.status == 0, "\(removal.output)")
        #expect(removal.output.contains("n4 is removed"))
        // n4 learns of its removal from the member list's next entry, a moment after the command returns.
        var answer: HTTPTestClient.Response?
        #expect(
            await eventually(seconds: 30, every: 0.1) {
                answer = try? await cluster.request("n4", "GET", "/.ready")
                return answer?.status == 503 && answer?.text.contains("was removed from the cluster") == true
            }, "n4's /.ready after its removal: \(answer?.status ?? 0) \(answer?.text ?? "no answer")")
        #expect(await eventually(seconds: 60, every: 0.1) { await self.isSettled(cluster, "n1") })
        #expect((await self.cluster(cluster, "n1")?["removed"] as? [String]) == ["n4"])
        for id in ["n1", "n2", "n3"] {
            // Leadership of n4's groups moves on its removal and is then balanced; readiness returns as soon as
            // every group's new leader has been heard from.
            #expect(await eventually(seconds: 30, every: 0.1) { await cluster.areReady([id]) })
            for item in [1, 10, 11, 15] {
                #expect(
                    await eventually(seconds: 30) {
                        (try? await cluster.request(id, "GET", "/items/k\(item).json").text) == "\(item)"
                    })
            }
        }

        let refused = try await self.hearth(["cluster", "remove", "--config", cluster.configurationPath, "n3"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("fewer than the replication factor"))
        // Healthy once leadership has settled after the removal (a group being handed over has no leader for a
        // moment, which `cluster status` reports as a problem).
        var status: (status: Int32, output: String) = (-1, "")
        #expect(
            await eventually(seconds: 60, every: 0.5) {
                status =
                    (try? await self.hearth(["cluster", "status", "--config", cluster.configurationPath])) ?? (-1, "")
                return status.status == 0
            }, "\(status.output)")
        // The member table has each member's release.
        #expect(status.output.contains("RELEASE"), "\(status.output)")
        for id in ["n1", "n2", "n3"] {
            #expect(
                status.output.split(separator: "\n").contains {
                    $0.hasPrefix(id + " ") && $0.contains(HearthVersion.release)
                },
                "\(status.output)")
        }
    }
}
