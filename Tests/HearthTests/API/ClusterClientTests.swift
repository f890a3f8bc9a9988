import Dispatch
import Foundation
import HearthTestKit
import Testing

@testable import Hearth

/// The client against a cluster of `hearth serve --config` processes, given every node's URL: when the node it talks
/// to is SIGKILLed mid-burst it fails over to another, its listener resumes, and every increment counts once.
@Suite(.serialized) struct ClusterClientTests {
    @Test(.timeLimit(.minutes(3))) func aClientFailsOverBetweenNodesAndCountsEachIncrementOnce() async throws {
        let cluster = try await ProcessCluster(nodes: 3)
        defer { cluster.terminateAll() }
        #expect(
            await eventually(seconds: 60, every: 0.1) { await cluster.areReady() })
        let urls = cluster.ids.compactMap { id in cluster.httpPorts[id].map { "http://127.0.0.1:\($0)?ns=stars" } }
        let database = Database.database(urls: urls)
        database.callbackQueue = DispatchQueue(label: "test.cluster.callbacks")
        defer { database.close() }
        let stars = database.reference(withPath: "posts/p1/starCount")
        let heard = Received<SnapshotText>()
        stars.observe(.value) { heard.append(SnapshotText($0)) }
        try await stars.setValue(0)

        let done = Received<Bool>()
        let burst = 60
        for index in 0..<burst {
            stars.setValue(ServerValue.increment(1), withCompletionBlock: { error, _ in done.append(error == nil) })
            if index == burst / 3 { await cluster.stop("n1", signal: SIGKILL) }
        }
        #expect(await eventually(seconds: 90) { done.all.count == burst })
        #expect(done.all.allSatisfy { $0 }, "\(done.all.filter { !$0 }.count) increments failed")
        #expect(await eventually(seconds: 30) { heard.last?.json == "\(burst)" })
        for id in ["n2", "n3"] {
            #expect(
                await eventually(seconds: 30) {
                    (try? await cluster.request(id, "GET", "/posts/p1/starCount.json?ns=stars").text) == "\(burst)"
                }, "\(id)")
        }
    }
}
