import HearthNet
import HearthTestKit
import Testing

@testable import HearthBench

/// A bench client's REST connection backs off while its node is away, and reaches the node once it is there.
@Suite struct RESTConnectionBackoffTests {
    /// Against a port where nothing listens for 3 s, a client asking as fast as it can tries at most 64 connects
    /// (the back-off grows from 50 ms to 1 s), each counted as a connect failure; then a node starts on that port
    /// and the next request is answered.
    @Test func aThreeSecondOutageCostsFewConnects() async throws {
        let port = try FreePorts.take(1)[0]
        let address = try SocketAddress(parsing: "127.0.0.1:\(port)")
        let outageOver = Flag()
        let nodeStarted = Flag()
        // The client blocks (connects, back-off sleeps), so it runs on a thread of its own, not on the cooperative
        // pool the node's start is awaited on.
        async let outcome = onDedicatedThread { () -> (connects: Int, others: Int, answered: Int, status: Int?) in
            let connection = RESTConnection(address: address, deadline: .now + .seconds(60))
            defer { connection.close() }
            let outageEnds = ContinuousClock.now + .seconds(3)
            var connectFailures = 0
            var otherFailures = 0
            var answered = 0
            while ContinuousClock.now < outageEnds {
                do throws(RESTConnection.Failure) {
                    _ = try connection.request("GET", "/.metrics")
                    answered += 1
                } catch {
                    switch error {
                    case .connecting: connectFailures += 1
                    case .exchanging: otherFailures += 1
                    }
                }
            }
            outageOver.set()
            guard eventuallyBlocking(seconds: 60, { nodeStarted.isSet }) else {
                return (connectFailures, otherFailures, answered, nil)
            }
            return (connectFailures, otherFailures, answered, try? connection.request("GET", "/.metrics").status)
        }
        #expect(await eventually(seconds: 60) { outageOver.isSet })
        let server = try await ServerProcess(arguments: ["--port", "\(port)"])
        defer { server.terminate() }
        nodeStarted.set()
        let (connectFailures, otherFailures, answered, status) = try await outcome
        #expect(answered == 0, "something answered on a port nobody serves")
        // Each request that found no connection tried one connect, and every connect failed.
        #expect(connectFailures <= 64, "\(connectFailures) connects in 3 s")
        #expect(otherFailures == 0)
        #expect(connectFailures >= 4, "the back-off should still try a few times in 3 s: \(connectFailures)")
        #expect(status == 200)
    }
}
