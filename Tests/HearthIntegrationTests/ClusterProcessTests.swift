import Foundation
import HearthTestKit
import Testing

/// Three `hearth serve --config` processes: one database whichever node a client talks to, through a member's
/// crash and restart and through a partition.
@Suite(.serialized) struct ClusterProcessTests {
    /// Waits until every member in `ids` answers `/.ready` with 200.
    private func ready(_ cluster: ProcessCluster, _ ids: [String]) async -> Bool {
        await eventually(seconds: 60, every: 0.1) { await cluster.areReady(ids) }
    }

    /// A write through `id` that is retried while leadership moves (503); returns the last status.
    private func write(_ cluster: ProcessCluster, _ id: String, _ method: String, _ target: String, _ body: String)
        async -> Int
    {
        var status = 0
        _ = await eventually(seconds: 60, every: 0.1) {
            status = (try? await cluster.request(id, method, target, body: body).status) ?? 0
            return status == 200
        }
        return status
    }

    private func read(_ cluster: ProcessCluster, _ id: String, _ target: String) async -> String? {
        try? await cluster.request(id, "GET", target).text
    }

    /// With one Raft group per shard and with the eight shards in one group (`groups`).
    @Test(.timeLimit(.minutes(3)), arguments: [nil, 1])
    func everyNodeServesOneDatabaseThroughACrashAndAPartition(groups: Int?) async throws {
        let cluster = try await ProcessCluster(nodes: 3, groups: groups)
        defer { cluster.terminateAll() }
        #expect(await self.ready(cluster, cluster.ids))

        // A listener on n3 hears a write made on n1.
        let port3 = try #require(cluster.httpPorts["n3"])
        let subscribed = Flag()
        async let heard = onDedicatedThread {
            () -> (status: Int, first: String, event: (event: String, data: String)) in
            let listener = try HTTPTestClient(port: port3, timeoutSeconds: 30)
            let head = try listener.request("GET", "/posts/p1.json", headers: [("Accept", "text/event-stream")])
            let first = try listener.readEvent().event
            subscribed.set()
            return (head.status, first, try listener.readEvent())
        }
        #expect(await eventually(seconds: 30) { subscribed.isSet })
        #expect(
            await self.write(cluster, "n1", "PUT", "/posts/p1.json", #"{"starCount":1,"stars":{"u1":true}}"#) == 200)
        let (headStatus, first, event) = try await heard
        #expect(headStatus == 200)
        #expect(first == "put")
        #expect(event.event == "put")
        #expect(event.data.contains(#""starCount":1"#))

        // A multi-path update through n2 spans shards: n2 shows all of it when it answers, the others a moment
        // later (each node shows what its replicas have committed).
        let update = #"{"posts/p2/starCount":5,"user-posts/u9/p2/starCount":5,"posts/p1/starCount":2}"#
        #expect(await self.write(cluster, "n2", "PATCH", "/.json", update) == 200)
        let expected =
            #"{"posts":{"p1":{"starCount":2,"stars":{"u1":true}},"p2":{"starCount":5}},"#
            + #""user-posts":{"u9":{"p2":{"starCount":5}}}}"#
        #expect(await self.read(cluster, "n2", "/.json") == expected)
        for id in cluster.ids {
            #expect(await eventually(seconds: 30) { await self.read(cluster, id, "/.json") == expected })
        }

        // n1 crashes; the others keep taking writes; restarted, n1 recovers and catches up.
        await cluster.stop("n1", signal: SIGKILL)
        for post in 3...6 {
            #expect(await self.write(cluster, "n2", "PUT", "/posts/p\(post)/starCount.json", "\(post)") == 200)
        }
        #expect(await self.read(cluster, "n2", "/posts/p6/starCount.json") == "6")
        try await cluster.start("n1")
        #expect(await self.ready(cluster, ["n1"]))
        #expect(await eventually(seconds: 30) { await self.read(cluster, "n1", "/posts/p6/starCount.json") == "6" })
        #expect(await self.read(cluster, "n1", "/posts/p1/starCount.json") == "2")

        // n3 is cut off: the majority keeps writing; healed, n3 shows everything.
        try await cluster.partition("n3", from: ["n1", "n2"])
        #expect(await self.write(cluster, "n1", "PUT", "/posts/p7/starCount.json", "7") == 200)
        #expect(await eventually(seconds: 30) { (try? await cluster.request("n3", "GET", "/.ready").status) == 503 })
        try await cluster.heal()
        #expect(await self.ready(cluster, cluster.ids))
        #expect(await eventually(seconds: 30) { await self.read(cluster, "n3", "/posts/p7/starCount.json") == "7" })

        // `/.cluster` names the cluster, its members and each shard's leader (once leadership has settled: the
        // preferred leaders take their shards back a few seconds after the heal, and a shard being handed over
        // has no leader for a moment).
        let status = try await cluster.request("n2", "GET", "/.cluster")
        #expect(status.status == 200)
        let document = try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any]
        #expect(document?["cluster"] as? String == "test")
        #expect((document?["members"] as? [Any])?.count == 3)
        #expect((document?["shards"] as? [[String: Any]])?.count == groups ?? 8, "one entry per group")
        #expect(document?["groups"] as? Int == groups ?? 8)
        #expect(
            await eventually(seconds: 30) {
                guard let body = try? await cluster.request("n2", "GET", "/.cluster").body,
                    let document = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                    let shards = document["shards"] as? [[String: Any]]
                else { return false }
                return shards.allSatisfy { ["n1", "n2", "n3"].contains($0["leader"] as? String ?? "") }
            })

        // `/.metrics` carries each shard's replication figures and each peer link's.
        let metrics = try await cluster.request("n1", "GET", "/.metrics").text
        for name in [
            #"hearth_raft_term{shard="0"}"#, #"hearth_raft_commit_index{shard="\#((groups ?? 8) - 1)"}"#,
            #"hearth_raft_apply_lag{shard="0"}"#,
            #"hearth_raft_leader_changes_total{shard="0"}"#, #"hearth_peer_connected{peer="n2"} 1"#,
            "hearth_shard_call_round_trips_total",
        ] {
            #expect(metrics.contains(name), "\(name) missing from /.metrics")
        }
    }
}
