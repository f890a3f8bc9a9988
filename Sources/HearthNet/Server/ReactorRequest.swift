/// Requests handed from the reactor thread to the server's task group, with the connection their replies go to:
/// one request, or pipelined requests that arrived together and share a batch (`HTTPRequestHandler.sharesBatches`).
struct ReactorRequest: Sendable {
    let connectionID: UInt64
    /// The batch's number on its connection, which its replies (and the news that it is ordered) carry back.
    let batch: UInt64
    let requests: [HTTPRequest]
}
