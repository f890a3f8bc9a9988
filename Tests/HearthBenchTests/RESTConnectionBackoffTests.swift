import HearthNet
import HearthTestKit
import Testing

@testable import HearthBench

/// A bench client's REST connection backs off while its node is away, and reaches the node once it is there.
@Suite struct RESTConnectionBackoffTests {
    /// Against a port where nothing listens for 3 s, a client asking as fast as it can tries at most 64 connects
    /// (the back-off grows from 50 ms to 1 s), each counted as a connect failure; then a node starts on that port
    /// and the next request is answered.
    @Test func aThreeSecondOutageCostsFewConnects() throws {
        let port = try FreePorts.take(1)[0]
        let address = try SocketAddress(parsing: "127.0.0.1:\(port)")
        let connection = RESTConnection(address: address, deadline: .now + .seconds(30))
        defer { connection.close() }
        let outageEnds = ContinuousClock.now + .seconds(3)
        var connectFailures = 0
        var otherFailures = 0
        while ContinuousClock.now < outageEnds {
            do throws(RESTConnection.Failure) {
                _ = try connection.request("GET", "/.metrics")
                Issue.record("something answered on a port nobody serves")
            } catch {
                switch error {
                case .connecting: connectFailures += 1
                case .exchanging: otherFailures += 1
                }
            }
        }
        // Each request that found no connection tried one connect, and every connect failed.
        #expect(connectFailures <= 64, "\(connectFailures) connects in 3 s")
        #expect(otherFailures == 0)
        #expect(connectFailures >= 4, "the back-off should still try a few times in 3 s: \(connectFailures)")

        let server = try ServerProcess(arguments: ["--port", "\(port)"])
        defer { server.stop() }
        let response = try connection.request("GET", "/.metrics")
        #expect(response.status == 200)
    }
}
