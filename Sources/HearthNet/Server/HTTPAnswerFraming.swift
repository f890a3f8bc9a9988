/// What the answer to a request needs of its head — whether the connection stays open, the version's framing, a
/// `HEAD` request's missing body — and whether the application lets the request share a batch: kept for each request
/// with the application instead of its whole head, so holding, appending and reading it retains nothing (a head holds
/// its method, target, path, query and fields).
struct HTTPAnswerFraming {
    /// Whether the connection stays open after this exchange (`HTTPRequestHead.isKeepAlive`).
    let isKeepAlive: Bool
    /// An HTTP/1.0 request (the parser takes only HTTP/1.1 and HTTP/1.0): a kept-alive answer says
    /// `Connection: keep-alive`, and a stream is not chunked.
    let isHTTP10: Bool
    /// A `HEAD` request: its answer carries no body.
    let omitsBody: Bool
    /// Whether the application admitted the request to share a batch (`HTTPRequestHandler.sharesBatches`), asked
    /// once when the request was complete.
    let sharesBatches: Bool

    /// The answer's framing for `head`, with the application's word on sharing batches.
    init(_ head: HTTPRequestHead, sharesBatches: Bool) {
        self.isKeepAlive = head.isKeepAlive
        self.isHTTP10 = head.version == "HTTP/1.0"
        self.omitsBody = head.method == "HEAD"
        self.sharesBatches = sharesBatches
    }
}
