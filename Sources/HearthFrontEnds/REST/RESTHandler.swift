import Foundation
import HearthConsole
import HearthCore
public import HearthDatabase
public import HearthNet
public import HearthNode
import HearthRules
public import HearthSystem

/// Serves Firebase's REST API (and SSE streaming, the operations endpoints `/.metrics`, `/.health`, `/.ready`, and
/// the web console's files at `/.console` with what it asks, `/.console/session` and `/.namespaces`) on the node's
/// HTTP port.
public final class RESTHandler: HTTPRequestHandler {
    let database: any DatabaseAccess
    let configuration: NodeConfiguration
    /// Who may read and write what: every request is checked here first.
    let access: AccessControl
    let metrics: Metrics
    let log: Log
    /// The realtime-protocol front end (`/.ws`, `/.lp`), when the node serves it.
    let wire: WireSessions?
    /// The cluster this node is a member of, if any (`/.cluster`).
    let cluster: (any ClusterOperations)?
    /// The backups this node streams at once (`GET /.backup`).
    let backups = BackupSlots()
    /// The readers of PATCH bodies, kept from one update to the next.
    let updateReaders = UpdateReaders()
    /// Takes turns among callers contending with compare-and-sets on one location (shared with realtime clients).
    var conditionalWrites: any ConditionalWriteTurns { self.access.conditionalWrites }

    public init(
        database: any DatabaseAccess,
        configuration: NodeConfiguration,
        access: AccessControl,
        metrics: Metrics,
        log: Log,
        wire: WireSessions? = nil,
        cluster: (any ClusterOperations)? = nil
    ) {
        self.database = database
        self.configuration = configuration
        self.access = access
        self.metrics = metrics
        self.log = log
        self.wire = wire
        self.cluster = cluster
        access.watchRules { [weak self] namespace in
            guard let self else { return }
            Task { self.revokeStreams(in: namespace) }
        }
    }

    public func connectionClosed(_ connectionID: UInt64) {
        self.conditionalWrites.connectionClosed(connectionID)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPReply {
        if let wire = self.wire, let reply = await wire.reply(to: request) { return reply }
        let started = ContinuousClock.now
        let reply: HTTPReply
        if request.path == RESTHandler.rulesPath {
            reply = .response(await self.rulesResponse(request))
        } else if request.path == RESTHandler.simulatePath {
            reply = .response(self.simulateResponse(request))
        } else if request.path == Self.consoleSessionPath {
            reply = .response(self.consoleSessionResponse(request))
        } else if request.path == Self.namespacesPath {
            reply = .response(self.namespacesResponse(request))
        } else if Console.serves(request.path) {
            reply = .response(Console.response(to: request))
        } else if request.path == Self.backupPath {
            reply = await self.backupReply(request)
        } else if request.path == "/.cluster/remove" {
            reply = .response(await self.removeMemberResponse(request))
        } else if Self.operationsPaths.contains(request.path) {
            reply = .response(self.operationsResponse(request))
        } else {
            do {
                reply = try await self.handleREST(request)
            } catch {
                reply = .response(self.response(to: error, path: request.path))
            }
        }
        self.record(request, reply, since: started)
        return reply
    }

    /// The answer to a REST request that failed with `error`, in Firebase's format.
    func response(to error: any Error, path: String) -> HTTPResponse {
        switch error {
        case let error as RESTError:
            return error.response
        case is AccessDeniedError:
            return RESTError.permissionDenied.response
        case let error as UnrepresentableIncrementError:
            return RESTError(400, error.description).response
        case let error as any WriteUnavailableError:
            return RESTError(503, error.description).response
        default:
            self.log.error("rest.failed", ["path": path, "error": "\(error)"])
            return RESTError(503, "The database is temporarily unavailable; retry shortly.").response
        }
    }

    /// Counts the request in `/.metrics` and logs it (debug).
    func record(_ request: HTTPRequest, _ reply: HTTPReply, since started: ContinuousClock.Instant) {
        self.record(RequestLabel(request), reply, since: started)
    }

    /// Counts the request `label` names in `/.metrics` and logs it (debug).
    func record(_ label: RequestLabel, _ reply: HTTPReply, since started: ContinuousClock.Instant) {
        let status: Int
        switch reply {
        case .response(let response), .stream(let response, _), .upgrade(let response, _): status = response.status
        case .encoded(let response): status = response.status
        }
        let seconds = Database.seconds(ContinuousClock.now - started)
        self.metrics.recordRequest(method: label.method, status: status, seconds: seconds)
        self.log.debug(
            "http.request",
            [
                "method": label.method, "path": label.path, "status": "\(status)",
                "ms": String(format: "%.3f", seconds * 1000), "remote": label.remoteAddress,
            ])
    }

    private func handleREST(_ http: HTTPRequest) async throws -> HTTPReply {
        let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
        await self.database.waitUntilServing()
        let (identity, expires) = try self.identity(of: request)
        if let write = try await self.orderWrite(request, http, identity: identity) {
            return try await write.reply()
        }
        // Not ordered ahead of its answer: a read, or a compare-and-set waiting for its turn.
        return request.method == .get
            ? try await self.get(request, http, identity: identity, expires: expires)
            : .response(try await self.compareAndSet(request, http, identity: identity))
    }
}
