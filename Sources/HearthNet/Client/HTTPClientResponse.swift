/// One HTTP response as `BlockingHTTPClient` received it: status, header fields in arrival order, and the body with
/// its transfer framing (chunked encoding) removed.
package struct HTTPClientResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    package var text: String { String(decoding: self.body, as: UTF8.self) }
}
