import HearthCore
public import HearthDatabase
public import HearthNet
public import HearthNode
public import HearthSystem

/// The node's realtime-protocol front end: accepts sessions at `/.ws` (and `/.lp`), and owns their tasks.
///
/// `reply(to:)` is the routing hook `RESTHandler` calls first; it answers WebSocket upgrades and long-poll
/// requests and returns `nil` for everything else. `run()` is a long-running service in the node's task group: it
/// runs one child task per session, which processes that session's messages in order and its onDisconnects at the
/// end, plus the WebSocket ping loop. Cancelling `run()` ends every session.
public final class WireSessions: Sendable {
    let context: WireSessionContext
    /// What the node's long-polling sessions hold together, held to `--max-client-memory`.
    package let longPollMemory: WireLongPollMemory
    private let defaultNamespace: String
    private let pingInterval: Duration
    private let live = Lock<[String: WireSession]>([:])
    private let newSessions: AsyncStream<WireSession>
    private let newSessionsContinuation: AsyncStream<WireSession>.Continuation

    public init(
        database: any DatabaseAccess, configuration: NodeConfiguration, access: AccessControl, log: Log,
        metrics: Metrics
    ) {
        self.context = WireSessionContext(
            database: database, access: access, log: log, metrics: metrics,
            maximumMessageBytes: configuration.maximumWireMessageBytes,
            maximumQueuedBytes: configuration.maximumWireQueuedBytes,
            maximumListens: configuration.maximumListensPerSession,
            maximumOnDisconnects: configuration.maximumOnDisconnectsPerSession,
            maximumOnDisconnectBytes: configuration.maximumOnDisconnectBytesPerSession)
        self.longPollMemory = WireLongPollMemory(limit: configuration.effectiveMaximumClientMemory)
        self.defaultNamespace = configuration.defaultNamespace
        self.pingInterval = .milliseconds(Int64(configuration.wirePingSeconds * 1000))
        (self.newSessions, self.newSessionsContinuation) = AsyncStream.makeStream(of: WireSession.self)
        access.watchRules { [weak self] namespace in
            guard let self else { return }
            let sessions = self.live.withLock { $0.values.filter { $0.namespace == namespace } }
            Task { for session in sessions { session.revokeDisallowedListens() } }
        }
    }

    /// Sessions currently open (connected or still running their onDisconnects).
    public var openSessionCount: Int { self.live.withLock { $0.count } }

    /// Answers `/.ws` upgrades (fresh, or of a long-polling session) and `/.lp` long polls; `nil` otherwise.
    public func reply(to request: HTTPRequest) async -> HTTPReply? {
        switch request.path {
        case "/.ws": return self.upgradeLongPoll(request) ?? self.upgrade(request)
        case "/.lp": return await self.longPoll(request)
        default: return nil
        }
    }

    /// Runs every session and the ping loop until cancelled; on cancellation every client is told the server is
    /// going away (before the HTTP server drops its sockets) and every session runs its onDisconnects.
    public func run() async {
        let interval = self.pingInterval
        await withTaskCancellationHandler {
            await self.runSessions(pingInterval: interval)
        } onCancel: {
            let sessions = self.live.withLock { Array($0.values) }
            for session in sessions { session.shutDown() }
        }
    }

    private func runSessions(pingInterval interval: Duration) async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                while (try? await Task.sleep(for: interval)) != nil {
                    let sessions = self.live.withLock { Array($0.values) }
                    for session in sessions { session.ping() }
                }
            }
            for await session in self.newSessions {
                group.addTask {
                    await session.run()
                    self.live.withLock { live in
                        if live[session.id] === session { live[session.id] = nil }
                    }
                }
            }
            group.cancelAll()
        }
    }

    private func upgrade(_ request: HTTPRequest) -> HTTPReply {
        let session: WireSession
        do {
            session = try self.makeSession(request)
        } catch {
            return WebSocketConnection.upgradeReply(
                for: request, handler: WireRefusal(reason: error.message),
                maximumMessageBytes: self.context.maximumMessageBytes)
        }
        let reply = WebSocketConnection.upgradeReply(
            for: request, handler: session, maximumMessageBytes: self.context.maximumMessageBytes)
        if case .upgrade = reply { self.start(session) }
        return reply
    }

    /// A new session for a request's `ns`/`Host`, replacing the live session named by `ls` if there is one.
    func makeSession(_ request: HTTPRequest) throws(RESTError) -> WireSession {
        let parameter = { (name: String) in request.query.first { $0.name == name }?.value }
        let host = request.headers["Host"] ?? ""
        let namespace = try RESTRequest.namespace(parameter("ns"), host: host, default: self.defaultNamespace)
        var replaced: WireSession?
        if let last = parameter("ls"), !last.isEmpty {
            replaced = self.live.withLock { $0[last] }
        }
        let session = WireSession(
            id: WireSession.makeID(), namespace: namespace, host: host, context: self.context, replaces: replaced)
        replaced?.terminate(reason: "Replaced by a new connection of the same client.")
        return session
    }

    /// Registers a session and hands it to `run()`.
    func start(_ session: WireSession) {
        self.live.withLock { $0[session.id] = session }
        self.newSessionsContinuation.yield(session)
    }

    func session(id: String) -> WireSession? {
        self.live.withLock { $0[id] }
    }
}
