import HearthCore
import HearthDatabase
import HearthNet
import HearthNode
import HearthRules

/// The operations endpoints beside the REST API: what a load balancer, a process supervisor and Prometheus ask.
extension RESTHandler {
    /// The paths answered here rather than as database locations (none ends in `.json`, so none is a REST path).
    static let operationsPaths: Set<String> = [
        "/.metrics", "/.health", "/.ready", "/.cluster", "/.cluster/partition", "/.cluster/heal", "/.cluster/remove",
    ]

    /// `/.metrics` (Prometheus text), `/.health` (the process is up and its log can still make writes durable) and
    /// `/.ready` (the node can serve every shard: on one node as soon as recovery has finished, which is before the
    /// port opens; in a cluster once every shard has a leader and this node applied what it knows was committed)
    /// are open to anyone, for load balancers and supervisors. `/.cluster` is a cluster member's view of the cluster
    /// (404 on a single node), for administrators only. These answer `GET` and `HEAD` only; `/.cluster/partition`
    /// and `/.cluster/heal` take an administrator's `POST` on a node started with fault injection.
    func operationsResponse(_ request: HTTPRequest) -> HTTPResponse {
        if request.path.hasPrefix("/.cluster"), let refusal = self.administratorRefusal(request) { return refusal }
        if request.path.hasPrefix("/.cluster/") { return self.faultResponse(request) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.jsonError(
                status: 405, message: "\(request.path) answers GET and HEAD only.")
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        switch request.path {
        case "/.metrics":
            return self.metricsResponse()
        case "/.health":
            if let problem = self.healthProblem { return .jsonError(status: 503, message: problem) }
            return Self.json(#"{"status":"ok"}"#)
        case "/.cluster":
            guard let cluster = self.cluster else {
                return .jsonError(
                    status: 404, message: "This node runs alone; start it with --config and --node to join a cluster.")
            }
            return Self.json(String(decoding: cluster.status.jsonBytes(), as: UTF8.self))
        default:
            if let reason = self.database.notReadyReason { return .jsonError(status: 503, message: reason) }
            return Self.json(#"{"ready":true}"#)
        }
    }

    /// `POST /.cluster/partition` with `{"peers": ["n3"]}` cuts this node off from those members (frames to and from
    /// them are dropped; the connections stay up); `POST /.cluster/heal` restores every link.
    private func faultResponse(_ request: HTTPRequest) -> HTTPResponse {
        guard let cluster = self.cluster, self.configuration.allowsFaultInjection else {
            return .jsonError(
                status: 403,
                message: "Fault injection is off; start a cluster node with --fault-injection to use \(request.path).")
        }
        guard request.method == "POST" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(request.path) answers POST only.")
            response.headers.add("Allow", "POST")
            return response
        }
        if request.path == "/.cluster/heal" {
            cluster.heal()
            return Self.json(#"{"partitioned":[]}"#)
        }
        guard let document = try? JSONReader.parseValue(request.body), case .array(let items)? = document["peers"],
            case let peers = items.compactMap(\.stringValue), peers.count == items.count
        else {
            return .jsonError(
                status: 400, message: #"Send {"peers": ["n2", …]}: the members to cut this node off from."#)
        }
        do {
            try cluster.partition(from: peers)
        } catch {
            return .jsonError(status: 400, message: error.description)
        }
        return Self.json(
            String(
                decoding: JSONValue.object(["partitioned": .array(peers.map { .string($0) })]).jsonBytes(),
                as: UTF8.self))
    }

    /// `POST /.cluster/remove` with an administrator's credential and `{"node": "n4"}` starts removing a member: 202 once the member list says it is
    /// leaving (its replicas then move off, and the list drops it; `GET /.cluster` shows the progress), 421 with
    /// `leader` (the member list leader's HTTP address) from any other node, 409 when the removal breaks a rule,
    /// 503 when no answer can be given now.
    func removeMemberResponse(_ request: HTTPRequest) async -> HTTPResponse {
        if let refusal = self.administratorRefusal(request) { return refusal }
        guard let cluster = self.cluster else {
            return .jsonError(status: 404, message: "This node runs alone; it has no members to remove.")
        }
        guard request.method == "POST" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(request.path) answers POST only.")
            response.headers.add("Allow", "POST")
            return response
        }
        guard let document = try? JSONReader.parseValue(request.body), let node = document["node"]?.stringValue else {
            return .jsonError(status: 400, message: #"Send {"node": "n4"}: the member to remove."#)
        }
        switch await cluster.removeMember(node) {
        case .leaving:
            var response = Self.json(
                String(
                    decoding: JSONValue.object(["node": .string(node), "membership": .string("leaving")]).jsonBytes(),
                    as: UTF8.self))
            response.status = 202
            return response
        case .redirect(let http):
            let body = JSONValue.object([
                "error": .string("Only the member list's leader removes members; ask it at \(http)."),
                "leader": .string(http),
            ])
            return HTTPResponse(
                status: 421, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                body: body.jsonBytes())
        case .refused(let reason):
            return .jsonError(status: 409, message: reason)
        case .unavailable(let reason):
            return .jsonError(status: 503, message: reason)
        }
    }

    /// Firebase's 401 `Permission denied` unless the request carries an administrator's credential (a database
    /// secret, or the emulator's `owner` where this node accepts it), checked before anything else is done or said:
    /// the cluster's layout and its operations are for administrators only.
    func administratorRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        self.isAdministrator(request) ? nil : RESTError.permissionDenied.response
    }

    /// Whether the request carries an administrator's credential (a database secret, an admin token, or `owner`
    /// where the node accepts it); no credential, or one that is not valid, is not.
    func isAdministrator(_ request: HTTPRequest) -> Bool {
        let parameters = Dictionary(request.query, uniquingKeysWith: { first, _ in first })
        let credential = RESTRequest.credential(request, parameters: parameters)
        return (try? self.access.authenticate(credential).identity) == .admin
    }

    private func metricsResponse() -> HTTPResponse {
        let text = self.metrics.render()
        return HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
            body: Array(text.utf8))
    }

    /// A 200 with a JSON body the client must not cache.
    static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")]),
            body: Array(text.utf8))
    }
}

extension RESTHandler {
    /// Why `/.health` answers 503, or nil when the node is healthy.
    var healthProblem: String? {
        guard self.database.hasFailed else { return nil }
        return "The write-ahead log failed; this node can no longer make writes durable. Restart it."
    }
}
