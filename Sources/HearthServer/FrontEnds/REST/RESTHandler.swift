import Foundation
import HearthCore
public import HearthNet
public import HearthSystem

/// Serves Firebase's REST API (and SSE streaming, and the operations endpoints `/.metrics`, `/.health`, `/.ready`)
/// on the node's HTTP port.
public final class RESTHandler: HTTPRequestHandler {
    let database: any DatabaseAccess
    let configuration: NodeConfiguration
    let policy: any AccessPolicy
    let metrics: Metrics
    let log: Log
    /// The realtime-protocol front end (`/.ws`, `/.lp`), when the node serves it.
    let wire: WireSessions?
    /// The cluster this node is a member of, if any (`/.cluster`).
    let cluster: (any ClusterOperations)?
    /// Takes turns among callers contending with compare-and-sets on one location.
    let conditionalWrites = ConditionalWriteGate()

    public init(
        database: any DatabaseAccess,
        configuration: NodeConfiguration,
        policy: any AccessPolicy,
        metrics: Metrics,
        log: Log,
        wire: WireSessions? = nil,
        cluster: (any ClusterOperations)? = nil
    ) {
        self.database = database
        self.configuration = configuration
        self.policy = policy
        self.metrics = metrics
        self.log = log
        self.wire = wire
        self.cluster = cluster
    }

    public func maximumBodyBytes(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Int {
        let unlimited = query.contains { $0.name == "writeSizeLimit" && $0.value == "unlimited" }
        return unlimited ? self.configuration.maximumImportBytes : self.configuration.maximumWriteBytes
    }

    public func connectionClosed(_ connectionID: UInt64) {
        self.conditionalWrites.connectionClosed(connectionID)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPReply {
        if let wire = self.wire, let reply = await wire.reply(to: request) { return reply }
        let started = ContinuousClock.now
        let reply: HTTPReply
        if request.path == "/.cluster/remove" {
            reply = .response(await self.removeMemberResponse(request))
        } else if Self.operationsPaths.contains(request.path) {
            reply = .response(self.operationsResponse(request))
        } else {
            do {
                reply = try await self.handleREST(request)
            } catch let error as RESTError {
                reply = .response(error.response)
            } catch let error as any WriteUnavailableError {
                reply = .response(RESTError(503, error.description).response)
            } catch {
                self.log.error("rest.failed", ["path": request.path, "error": "\(error)"])
                reply = .response(RESTError(503, "The database is temporarily unavailable; retry shortly.").response)
            }
        }
        let status: Int
        switch reply {
        case .response(let response), .stream(let response, _), .upgrade(let response, _): status = response.status
        }
        let seconds = Database.seconds(ContinuousClock.now - started)
        self.metrics.recordRequest(method: request.method, status: status, seconds: seconds)
        self.log.debug(
            "http.request",
            [
                "method": request.method, "path": request.path, "status": "\(status)",
                "ms": String(format: "%.3f", seconds * 1000), "remote": request.remoteAddress,
            ])
        return reply
    }

    private func handleREST(_ http: HTTPRequest) async throws -> HTTPReply {
        let request = try RESTRequest(http, defaultNamespace: self.configuration.defaultNamespace)
        let operation: AccessRequest.Operation = request.method == .get ? .read : .write
        let access = AccessRequest(
            operation: operation, namespace: request.namespace, path: request.path, credential: request.credential)
        guard self.policy.allows(access) else { throw RESTError.permissionDenied }
        switch request.method {
        case .get:
            return try await self.get(request, http)
        case .put, .delete:
            return .response(try await self.set(request, http))
        case .post:
            return .response(try await self.push(request, http))
        case .patch:
            return .response(try await self.update(request, http))
        }
    }
}
