import HearthNet

/// The operations endpoints beside the REST API: what a load balancer, a process supervisor and Prometheus ask.
extension RESTHandler {
    /// The paths answered here rather than as database locations (none ends in `.json`, so none is a REST path).
    static let operationsPaths: Set<String> = ["/.metrics", "/.health", "/.ready"]

    /// `/.metrics` (Prometheus text), `/.health` (the process is up and its log can still make writes durable) and
    /// `/.ready` (the node can serve every shard: on one node as soon as recovery has finished, which is before the
    /// port opens; in a cluster once every shard has a leader and this node applied what it knows was committed).
    /// Only `GET` and `HEAD` are allowed.
    func operationsResponse(_ request: HTTPRequest) -> HTTPResponse {
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
            guard !self.database.hasFailed else {
                return .jsonError(
                    status: 503,
                    message: "The write-ahead log failed; this node can no longer make writes durable. Restart it.")
            }
            return Self.json(#"{"status":"ok"}"#)
        default:
            if let reason = self.database.notReadyReason { return .jsonError(status: 503, message: reason) }
            return Self.json(#"{"ready":true}"#)
        }
    }

    private func metricsResponse() -> HTTPResponse {
        let text = self.metrics.render()
        return HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
            body: Array(text.utf8))
    }

    private static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")]),
            body: Array(text.utf8))
    }
}
