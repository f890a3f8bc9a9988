import HearthNet

/// What the metrics and the request log say of a request once it is answered: its method, path and peer. A write
/// handed to the write loop keeps this until its answer, not the whole request (fields and body), so its entry is
/// made without copying, and retaining, the request.
struct RequestLabel: Sendable {
    let method: String
    let path: String
    /// The peer as `"ip:port"`.
    let remoteAddress: String

    /// The label of `request`.
    init(_ request: borrowing HTTPRequest) {
        self.method = request.method
        self.path = request.path
        self.remoteAddress = request.remoteAddress
    }
}
