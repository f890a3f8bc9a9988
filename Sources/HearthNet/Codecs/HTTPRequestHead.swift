/// A parsed request line and header block, before the body: what the server needs to decide on limits, `100
/// Continue` and keep-alive.
package struct HTTPRequestHead: Sendable {
    /// How the request body is delimited (RFC 9112 §6.3).
    package enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    package var method: String
    var target: String
    package var path: String
    package var query: [(name: String, value: String)]
    var version: String
    var headers: HTTPHeaders
    package var framing: Framing
    /// Whether the connection stays open after this exchange: HTTP/1.1 unless `Connection: close`, HTTP/1.0 only
    /// with `Connection: keep-alive`.
    var isKeepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue: Bool

    /// The head completed with its body, ready for the application, with the application's word on sharing batches
    /// (`HTTPRequest.sharesBatches`). Consuming: the request takes the head's parts rather than copies of them.
    consuming func makeRequest(body: [UInt8], remoteAddress: String, connectionID: UInt64, sharesBatches: Bool)
        -> HTTPRequest
    {
        var request = HTTPRequest(
            method: self.method,
            target: self.target,
            path: self.path,
            query: self.query,
            version: self.version,
            headers: self.headers,
            body: body,
            remoteAddress: remoteAddress,
            connectionID: connectionID
        )
        request.sharesBatches = sharesBatches
        return request
    }
}
