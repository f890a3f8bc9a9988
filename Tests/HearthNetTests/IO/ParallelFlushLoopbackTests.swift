import HearthSystem
import Testing

@testable import HearthNet

/// A batch that flushes many connections at once is sent by the loop and its send helpers together: every client
/// gets exactly its own bytes, and a client that went away is closed by the loop as after any failed send.
@Suite struct ParallelFlushLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func aLargeBatchReachesEveryClientExactlyOnce() async throws {
        let server = ConnectionLog()
        let listener = try recordingListener(server)
        var configuration = EventLoop.Configuration()
        configuration.sendHelpers = 2
        configuration.parallelFlushMinimum = 128
        let loop = try EventLoop(configuration: configuration, listener: listener)
        let address = try SocketAddress(host: "127.0.0.1", port: listener.port)
        let count = configuration.parallelFlushMinimum + 40
        var clients: [BlockingConnection] = []
        for index in 0..<count {
            clients.append(try BlockingConnection(to: address, before: .now + .seconds(20)))
            #expect(await server.wait { $0.opened == index + 1 }, "connection \(index) was not accepted")
        }
        let writers = server.snapshot.writers
        let gone = clients.removeLast()
        gone.close()
        #expect(await server.wait { $0.closes.count == 1 })
        for round in 0..<3 {
            let payloads = writers.indices.map { index in
                Array("round \(round) client \(index) ".utf8) + [UInt8](repeating: UInt8(index % 251), count: 20_000)
            }
            FlushBatch.collecting {
                for (writer, payload) in zip(writers, payloads) {
                    _ = writer.write(Array(payload.prefix(12)))
                    _ = writer.write(Array(payload.dropFirst(12)))
                }
            }
            for (index, client) in clients.enumerated() {
                var received: [UInt8] = []
                while received.count < payloads[index].count { received += try client.receive(maximum: 64 * 1024) }
                #expect(received == payloads[index], "round \(round), client \(index)")
            }
        }
        #expect(loop.statistics.parallelFlushes == 3, "each round went out from the loop and its helpers")
        for client in clients { client.close() }
        try await loop.shutdown(gracePeriod: .seconds(1))
        #expect(server.snapshot.closes.count == count)
    }
}
