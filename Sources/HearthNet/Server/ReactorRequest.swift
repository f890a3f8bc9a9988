/// A request handed from the reactor thread to the server's task group, with the connection its reply goes to.
struct ReactorRequest: Sendable {
    let connectionID: UInt64
    let request: HTTPRequest
}
