/// One complete HTTP request as the application sees it: decoded path and query, headers and the whole body.
///
/// The server builds it once the body has fully arrived; `path` and `query` are already percent-decoded so front
/// ends never handle escapes, while `target` keeps the raw form for logging and redirects.
public struct HTTPRequest: Sendable {
    /// The method token as received; tokens are case-sensitive, so `get` is not `GET`.
    public var method: String
    /// The raw request-target from the request line.
    public var target: String
    /// The percent-decoded path part of the target, without the query (`"*"` for `OPTIONS *`).
    public var path: String
    /// The percent-decoded query items (`+` decoded as a space), in order; a name without `=` has an empty value.
    public var query: [(name: String, value: String)]
    /// `"HTTP/1.1"` or `"HTTP/1.0"`.
    public var version: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer as `"ip:port"`.
    public var remoteAddress: String
    /// The connection the request came on, unique among the server's connections for its lifetime (0 when the
    /// request was built outside a server); `HTTPRequestHandler.connectionClosed` names it when it closes.
    public var connectionID: UInt64
    /// Whether the server's application admitted the request to share a batch (`HTTPRequestHandler.sharesBatches`),
    /// asked once by the server when the request was complete, so the application need not ask again for each
    /// batch it takes; nil for a request built outside a server. The answer is of the request as the server built
    /// it: code that changes a request's method, target or headers afterwards sets this to nil.
    package var sharesBatches: Bool?

    public init(
        method: String,
        target: String,
        path: String,
        query: [(name: String, value: String)] = [],
        version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = "",
        connectionID: UInt64 = 0
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.connectionID = connectionID
    }

    /// The first query value named `name`, if any.
    public func queryValue(_ name: String) -> String? {
        self.query.first { $0.name == name }?.value
    }
}
