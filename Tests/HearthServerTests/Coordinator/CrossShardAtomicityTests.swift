import Foundation
import HearthCore
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Multi-shard updates go through two-phase commit: under concurrency they must neither lose increments nor ever be
/// seen half-applied.
@Suite struct CrossShardAtomicityTests {
    @Test func concurrentTransfersBetweenShardsKeepTheSumAndLoseNothing() async throws {
        let router = ShardRouter(shardCount: 16, shardDepth: 2)
        let account = { (name: String) in try Path(validating: "/acct/\(name)") }
        let names = (0..<64).map { "u\($0)" }
        let from = try #require(names.first)
        let to = try #require(
            try names.first {
                try router.shard(namespace: "default", path: account($0))
                    != router.shard(namespace: "default", path: account(from))
            })
        let transfer =
            #"{"\#(from)/balance":{".sv":{"increment":-1}},"\#(to)/balance":{".sv":{"increment":1}}}"#

        try await TestNode.with { node in
            let port = node.port
            let done = Flag()
            let violations = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await onDedicatedThread {
                            let client = try HTTPTestClient(port: port)
                            for _ in 0..<25 {
                                let response = try client.request("PATCH", "/acct.json", body: transfer)
                                guard response.status == 200 else {
                                    throw TestClientError(description: response.text)
                                }
                            }
                        }
                    }
                }
                for _ in 0..<2 {
                    group.addTask {
                        try await onDedicatedThread {
                            let client = try HTTPTestClient(port: port)
                            for _ in 0..<25 {
                                _ = try client.request(
                                    "PUT", "/acct/\(from)/bonus.json", body: #"{".sv":{"increment":1}}"#)
                            }
                        }
                    }
                }
                for _ in 0..<2 {
                    group.addTask {
                        try await onDedicatedThread {
                            let client = try HTTPTestClient(port: port)
                            while !done.isSet {
                                let text = try client.request("GET", "/acct.json").text
                                let value = try JSONReader.parseValue(text)
                                let a = value[from]?["balance"]?.intValue ?? 0
                                let b = value[to]?["balance"]?.intValue ?? 0
                                if a + b != 0 { violations.increment() }
                            }
                        }
                    }
                }
                try await group.next()
                try await group.next()
                try await group.next()
                try await group.next()
                try await group.next()
                try await group.next()
                done.set()
                try await group.waitForAll()
            }
            #expect(violations.value == 0, "a reader saw a transfer half-applied")
            let final = try JSONReader.parseValue(try await node.request("GET", "/acct.json").text)
            #expect(final[from]?["balance"] == .int(-100))
            #expect(final[to]?["balance"] == .int(100))
            #expect(final[from]?["bonus"] == .int(50))
        }
    }
}

/// A counter shared by test threads.
private final class Counter: Sendable {
    private let state = Atomic<Int>(0)
    var value: Int { self.state.load(ordering: .relaxed) }
    func increment() { self.state.add(1, ordering: .relaxed) }
}
