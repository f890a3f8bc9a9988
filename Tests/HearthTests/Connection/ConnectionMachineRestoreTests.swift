import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct ConnectionMachineRestoreTests {
    /// After a reconnect every live listen is sent again, then every unanswered write in its original order, then
    /// the onDisconnect requests that waited.
    @Test func resendsListensThenWritesInOrder() {
        var driver = MachineDriver()
        _ = driver.connect()
        _ = driver.command(.listen(Self.key("a"), hash: "ha"))
        _ = driver.command(.listen(Self.key("b"), hash: "hb"))
        let first = MachineDriver.requests(driver.command(.write(WriteID(1), Self.put("w1"))))[0].id
        _ = driver.command(.write(WriteID(2), Self.put("w2")))
        _ = driver.receive(MachineDriver.answer(first))
        _ = driver.command(.unlisten(Self.key("b")))
        _ = driver.dropTransport()
        _ = driver.command(.write(WriteID(3), Self.put("w3")))
        _ = driver.command(.onDisconnect(RequestToken(1), .onDisconnectPut(path: "/p", data: .null)))
        _ = driver.command(.listen(Self.key("c"), hash: "hc"))
        let restored = driver.advanceToWake() + driver.handshake(session: "s2")
        #expect(
            MachineDriver.requests(restored).map(\.request) == [
                .listen(path: "/a", query: nil, tag: nil, hash: "ha"),
                .listen(path: "/c", query: nil, tag: nil, hash: "hc"),
                Self.put("w2"), Self.put("w3"),
                .onDisconnectPut(path: "/p", data: .null),
            ])
    }

    /// A transaction's compare-and-set put lost with the connection fails with `disconnected` instead of being
    /// resent (it could apply twice); so does a get in flight. A plain put waits to be resent.
    @Test func inFlightTransactionsAndGetsFailOnDisconnect() {
        var driver = MachineDriver()
        _ = driver.connect()
        _ = driver.command(.write(WriteID(1), .put(path: "/n", data: .int(2), hash: "abc")))
        _ = driver.command(.write(WriteID(2), Self.put("plain")))
        _ = driver.command(.get(RequestToken(5), path: Self.path("g"), query: nil))
        let actions = driver.dropTransport()
        #expect(
            MachineDriver.events(actions) == [
                .disconnected, .writeAnswered(WriteID(1), .failure(.connectionLost)),
                .requestAnswered(RequestToken(5), .failure(.connectionLost)),
            ])
        let restored = driver.advanceToWake() + driver.handshake()
        #expect(MachineDriver.requests(restored).map(\.request) == [Self.put("plain")])
    }

    /// A write sent again after a reconnect gets a new request id and keeps its origin; each send says which of
    /// its client's writes are all answered (those below the oldest still pending).
    @Test func aResentWriteKeepsItsOriginAndSaysWhatIsSettled() throws {
        var driver = MachineDriver()
        _ = driver.connect()
        let named = { (sequence: UInt64) in
            Self.put("w\(sequence)").with(origin: try? WriteOrigin(client: "c", sequence: sequence, settledBelow: 0))
        }
        let sent = MachineDriver.requests(
            driver.command(.write(WriteID(1), named(1))) + driver.command(.write(WriteID(2), named(2))))
        #expect(sent.map(\.request.origin?.settledBelow) == [1, 1])
        _ = driver.receive(MachineDriver.answer(sent[0].id))
        _ = driver.dropTransport()
        _ = driver.command(.write(WriteID(3), named(3)))
        let restored = MachineDriver.requests(driver.advanceToWake() + driver.handshake(session: "s2"))
        #expect(restored.map(\.request.origin?.sequence) == [2, 3])
        #expect(restored.map(\.request.origin?.settledBelow) == [2, 2])
        #expect(restored.allSatisfy { $0.id > sent[1].id })
    }

    /// A transaction's compare-and-set put that names its origin is sent again after a reconnect rather than
    /// failed: a server that applied it answers without applying it twice.
    @Test func aNamedTransactionPutIsSentAgain() throws {
        var driver = MachineDriver()
        _ = driver.connect()
        let cas = WireRequest.put(
            path: "/n", data: .int(2), hash: "abc", origin: try WriteOrigin(client: "c", sequence: 1, settledBelow: 1))
        _ = driver.command(.write(WriteID(1), cas))
        #expect(MachineDriver.events(driver.dropTransport()) == [.disconnected])
        #expect(MachineDriver.requests(driver.advanceToWake() + driver.handshake()).map(\.request) == [cas])
    }

    /// Purged writes are never sent again, whether they were sent or waiting; an answer to one already sent is
    /// still passed on (the engine, which cancelled it, ignores it).
    @Test func purgedWritesAreForgotten() {
        var driver = MachineDriver()
        _ = driver.connect()
        let sent = MachineDriver.requests(driver.command(.write(WriteID(1), Self.put("sent"))))[0].id
        _ = driver.dropTransport()
        _ = driver.command(.write(WriteID(2), Self.put("waiting")))
        #expect(driver.command(.purgeWrites).isEmpty)
        #expect(MachineDriver.requests(driver.advanceToWake() + driver.handshake()).isEmpty)
        _ = driver.command(.write(WriteID(3), Self.put("after")))
        #expect(MachineDriver.events(driver.receive(MachineDriver.answer(sent))).isEmpty)
    }

    /// A compare-and-set put that was never sent is sent on the next connection like any write.
    @Test func unsentTransactionsWaitForTheConnection() {
        var driver = MachineDriver()
        _ = driver.online()
        let cas = WireRequest.put(path: "/n", data: .int(2), hash: "abc")
        _ = driver.command(.write(WriteID(1), cas))
        #expect(MachineDriver.requests(driver.handshake()).map(\.request) == [cas])
    }

    /// A get while offline by choice fails at once; while connecting it waits for the connection, up to its
    /// timeout.
    @Test func offlineGets() {
        var driver = MachineDriver()
        let offline = driver.command(.get(RequestToken(1), path: Self.path("a"), query: nil))
        #expect(MachineDriver.events(offline) == [.requestAnswered(RequestToken(1), .failure(.offline))])

        _ = driver.online()
        #expect(driver.command(.get(RequestToken(2), path: Self.path("a"), query: nil)).isEmpty)
        #expect(MachineDriver.requests(driver.handshake()).map(\.request) == [.get(path: "/a", query: nil)])

        _ = driver.dropTransport()
        _ = driver.command(.get(RequestToken(3), path: Self.path("a"), query: nil))
        let expired = driver.advance(.seconds(3))
        #expect(MachineDriver.events(expired).contains(.requestAnswered(RequestToken(3), .failure(.offline))))
    }

    /// goOffline closes the connection, reports it, and does not reconnect; onDisconnect requests wait.
    @Test func goOfflineStaysOffline() {
        var driver = MachineDriver()
        _ = driver.connect()
        let actions = driver.offline()
        #expect(actions == [.closeTransport(attempt: 1), .event(.disconnected)])
        #expect(driver.machine.nextWake == nil)
        #expect(driver.command(.onDisconnect(RequestToken(1), .onDisconnectCancel(path: "/p"))).isEmpty)
        let restored = driver.online() + driver.handshake()
        #expect(MachineDriver.requests(restored).map(\.request) == [.onDisconnectCancel(path: "/p")])
    }

    /// A listen answered with a failure is over: it is not sent again after a reconnect.
    @Test func failedListensAreForgotten() {
        var driver = MachineDriver()
        _ = driver.connect()
        let id = MachineDriver.requests(driver.command(.listen(Self.key("a"), hash: "")))[0].id
        let denied = WireResponse.failure(.permissionDeniedError)
        #expect(
            MachineDriver.events(driver.receive(MachineDriver.answer(id, denied)))
                == [.listenAnswered(Self.key("a"), denied)])
        let restored = driver.dropTransport() + driver.advanceToWake() + driver.handshake()
        #expect(MachineDriver.requests(restored).isEmpty)
    }

    static func put(_ value: String) -> WireRequest {
        .put(path: "/w", data: .string(value), hash: nil)
    }

    static func path(_ text: String) -> Path {
        ConnectionMachineHandshakeTests.path(text)
    }

    static func key(_ text: String) -> ListenKey {
        ConnectionMachineHandshakeTests.key(text)
    }
}
