import HearthCore
import HearthWire
import Testing

@testable import Hearth

@Suite struct ConnectionMachineHandshakeTests {
    /// Going online opens the realtime URL of the first endpoint with the namespace; nothing is sent before `h`.
    @Test func opensTheRealtimeURL() {
        var driver = MachineDriver()
        let actions = driver.online()
        #expect(
            actions == [
                .openTransport(
                    attempt: 1, endpoint: RealtimeEndpoint(host: "127.0.0.1", port: 9000), target: "/.ws?v=5&ns=demo")
            ])
        #expect(MachineDriver.frames(driver.command(.listen(Self.key("a"), hash: ""))).isEmpty)
    }

    /// The handshake reports the server's clock offset and sends what waited for it.
    @Test func handshakeReportsTheOffset() {
        var driver = MachineDriver()
        _ = driver.online()
        _ = driver.command(.listen(Self.key("a"), hash: "h1"))
        let actions = driver.handshake(offset: 1234)
        #expect(MachineDriver.events(actions) == [.connected(serverTimeOffsetMilliseconds: 1234)])
        let requests = MachineDriver.requests(actions)
        #expect(requests.map(\.request) == [.listen(path: "/a", query: nil, tag: nil, hash: "h1")])
        #expect(driver.machine.lastSessionID == "s1")
    }

    /// A reconnect sends the last session id as `ls`.
    @Test func reconnectSendsTheLastSession() {
        var driver = MachineDriver()
        _ = driver.connect()
        let actions = driver.dropTransport() + driver.advanceToWake()
        #expect(MachineDriver.events(actions) == [.disconnected])
        let targets = actions.compactMap { if case .openTransport(_, _, let target) = $0 { target } else { nil } }
        #expect(targets == ["/.ws?v=5&ns=demo&ls=s1"])
    }

    /// Answers go to what their request id was for: listens, writes and requests.
    @Test func answersAreRoutedById() {
        var driver = MachineDriver()
        _ = driver.connect()
        let listen = MachineDriver.requests(driver.command(.listen(Self.key("a"), hash: "")))[0].id
        let put = WireRequest.put(path: "/a", data: .int(1), hash: nil)
        let write = MachineDriver.requests(driver.command(.write(WriteID(7), put)))[0].id
        let get = MachineDriver.requests(driver.command(.get(RequestToken(3), path: Self.path("b"), query: nil)))[0].id
        #expect(Set([listen, write, get]).count == 3)
        let answered =
            driver.receive(MachineDriver.answer(get, .ok(.json(.int(5)))))
            + driver.receive(MachineDriver.answer(write)) + driver.receive(MachineDriver.answer(listen))
            + driver.receive(MachineDriver.answer(999))
        #expect(
            MachineDriver.events(answered) == [
                .requestAnswered(RequestToken(3), .ok(.json(.int(5)))), .writeAnswered(WriteID(7), .okEmpty),
                .listenAnswered(Self.key("a"), .okEmpty),
            ])
    }

    /// Pushes become data, merge and revocation events; a revocation ends the listen.
    @Test func pushesBecomeEvents() {
        var driver = MachineDriver()
        _ = driver.connect()
        _ = driver.command(.listen(Self.key("a"), hash: ""))
        let change = WireMergeChange(relative: Self.path("x"), data: .json(.int(2)))
        let actions =
            driver.receive(.dataPush(path: Self.path("a"), data: .json(.int(1)), tag: nil))
            + driver.receive(.mergePush(path: Self.path("a"), changes: [change], tag: 4))
            + driver.receive(.listenRevoked(path: Self.path("a"), query: nil))
        #expect(
            MachineDriver.events(actions) == [
                .data(path: Self.path("a"), .json(.int(1)), tag: nil),
                .merge(path: Self.path("a"), [change], tag: 4),
                .listenRevoked(path: Self.path("a"), query: nil),
            ])
        let restored = driver.dropTransport() + driver.advanceToWake() + driver.handshake()
        #expect(MachineDriver.requests(restored).isEmpty)
    }

    /// A message longer than a frame goes out as a count frame and parts; split server messages are joined.
    @Test func largeMessagesAreSplitAndJoined() throws {
        var driver = MachineDriver()
        _ = driver.connect()
        let big = String(repeating: "x", count: 40_000)
        let actions = driver.command(.write(WriteID(1), .put(path: "/a", data: .string(big), hash: nil)))
        let frames = MachineDriver.frames(actions)
        #expect(frames.count == 4)
        #expect(frames[0] == "3")
        #expect(frames.dropFirst().allSatisfy { $0.utf8.count <= 16384 })
        #expect(MachineDriver.requests(actions).map(\.request) == [.put(path: "/a", data: .string(big), hash: nil)])

        let push = String(
            decoding: WireServerMessage.dataPush(path: Self.path("a"), data: .json(.string(big)), tag: nil).encoded(),
            as: UTF8.self)
        let parts = try #require(WireFrameSplitter.frames(Array(push.utf8)))
        var events: [ServerEvent] = []
        for part in parts { events += MachineDriver.events(driver.frame(part)) }
        #expect(events == [.data(path: Self.path("a"), .json(.string(big)), tag: nil)])
    }

    /// A shutdown (`s`) stops reconnecting and says why; `goOnline` starts again.
    @Test func shutdownStopsReconnecting() {
        var driver = MachineDriver()
        _ = driver.connect()
        let actions = driver.receive(.shutdown(reason: "Unknown namespace"))
        #expect(MachineDriver.events(actions) == [.disconnected, .shutdown(reason: "Unknown namespace")])
        #expect(actions.contains(.closeTransport(attempt: 1)))
        #expect(driver.machine.nextWake == nil)
        #expect(MachineDriver.opened(driver.advance(.seconds(600))).isEmpty)
        #expect(MachineDriver.opened(driver.online()).count == 1)
    }

    /// A reset (`r`) redials the named host at once, keeping the scheme.
    @Test func resetRedialsTheNamedHost() {
        var driver = MachineDriver()
        _ = driver.online()
        let actions = driver.receive(.reset(host: "127.0.0.2:9100"))
        #expect(actions.contains(.closeTransport(attempt: 1)))
        #expect(MachineDriver.opened(actions) == [RealtimeEndpoint(host: "127.0.0.2", port: 9100)])
    }

    /// A revoked credential (`ac`) drops the connection and dials again; a server error (`e`) is only logged.
    @Test func authRevokedReconnectsAndErrorsAreLogged() {
        var driver = MachineDriver(endpoints: 2)
        _ = driver.connect()
        let logged = driver.receive(.serverError("too large"))
        #expect(logged == [.log("Server error: too large")])
        let actions = driver.receive(.authRevoked(status: "expired_token", reason: "expired"))
        #expect(actions.contains(.closeTransport(attempt: 1)))
        #expect(MachineDriver.events(actions) == [.disconnected])
        #expect(MachineDriver.opened(actions).map(\.port) == [9001])
    }

    /// Database and realtime URLs name an endpoint; a reset's `host[:port]` keeps the scheme's default port.
    @Test func endpointsParse() throws {
        #expect(try RealtimeEndpoint(parsing: "ws://127.0.0.1:9000") == RealtimeEndpoint(host: "127.0.0.1", port: 9000))
        #expect(
            try RealtimeEndpoint(parsing: "http://localhost:9000?ns=demo")
                == RealtimeEndpoint(host: "localhost", port: 9000))
        #expect(
            try RealtimeEndpoint(parsing: "https://db.example.com/")
                == RealtimeEndpoint(host: "db.example.com", port: 443, isSecure: true))
        #expect(try RealtimeEndpoint(parsing: "ws://[::1]:7000").authority == "[::1]:7000")
        #expect(throws: RealtimeConnectionError.self) { try RealtimeEndpoint(parsing: "ftp://x") }
        #expect(throws: RealtimeConnectionError.self) { try RealtimeEndpoint(parsing: "ws://:80") }
        #expect(RealtimeEndpoint(authority: "s-1.example.com", isSecure: true)?.port == 443)
        #expect(
            RealtimeEndpoint(host: "h", port: 1).url(namespace: "n", lastSessionID: "abc")
                == "ws://h:1/.ws?v=5&ns=n&ls=abc")
    }

    static func path(_ text: String) -> Path {
        Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
    }

    static func key(_ text: String) -> ListenKey {
        ListenKey(path: Self.path(text), query: nil, tag: nil)
    }
}
