/// Pipelined requests of one connection gathered on the reactor thread for one hand-off to the application, with
/// their heads (which the answers need) and their bodies' bytes together.
struct HTTPRequestBatch {
    private(set) var heads: [HTTPRequestHead] = []
    private(set) var requests: [HTTPRequest] = []
    /// The bodies' bytes together, bounded by `HTTPConnectionHandler.maximumBatchBodyBytes`.
    private(set) var bodyBytes = 0

    var isEmpty: Bool { self.requests.isEmpty }

    /// Adds a complete request, in arrival order.
    mutating func append(_ head: HTTPRequestHead, _ request: HTTPRequest) {
        self.heads.append(head)
        self.requests.append(request)
        self.bodyBytes += request.body.count
    }

    /// Whether the next pipelined request may join after `head`, the last one added: the connection stays open
    /// after it, the application lets it share a batch, and the batch has room.
    func admitsMore(after head: HTTPRequestHead, application: any HTTPRequestHandler) -> Bool {
        head.isKeepAlive && self.requests.count < HTTPConnectionHandler.maximumBatchRequests
            && self.bodyBytes < HTTPConnectionHandler.maximumBatchBodyBytes
            && application.sharesBatches(method: head.method, path: head.path, query: head.query, headers: head.headers)
    }
}
