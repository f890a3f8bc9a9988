/// Why `BlockingHTTPClient` got no usable answer: nothing listens, the exchange ran past its deadline, or what came
/// back was not an HTTP/1.1 response. The message names the address and says what to check.
package struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure happened.
    package enum Code: Sendable, Hashable {
        /// Nothing listens at the address (`ECONNREFUSED`): the server is not running there.
        case refused
        /// The address cannot be reached, or the connection was reset or failed in some other way.
        case unreachable
        /// Connecting, sending or receiving did not finish before the deadline.
        case timedOut
        /// The bytes received are not a complete HTTP/1.1 response.
        case malformedResponse
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { self.message }
}
