/// Pipelined requests of one connection gathered on the reactor thread for one hand-off to the application, with
/// what their answers need of their heads (`HTTPAnswerFraming`) and their bodies' bytes together.
struct HTTPRequestBatch {
    private(set) var framings: [HTTPAnswerFraming] = []
    private(set) var requests: [HTTPRequest] = []
    /// The bodies' bytes together, bounded by `HTTPConnectionHandler.maximumBatchBodyBytes`.
    private(set) var bodyBytes = 0

    var isEmpty: Bool { self.requests.isEmpty }

    /// Adds a complete request, in arrival order; the request is moved in, not copied.
    mutating func append(_ framing: HTTPAnswerFraming, _ request: consuming HTTPRequest) {
        self.framings.append(framing)
        self.bodyBytes += request.body.count
        self.requests.append(request)
    }

    /// Whether the next pipelined request may join after the last one added, answered with `framing`: the connection
    /// stays open after it, the application lets it share a batch, and the batch has room.
    func admitsMore(after framing: HTTPAnswerFraming) -> Bool {
        framing.isKeepAlive && framing.sharesBatches
            && self.requests.count < HTTPConnectionHandler.maximumBatchRequests
            && self.bodyBytes < HTTPConnectionHandler.maximumBatchBodyBytes
    }
}
