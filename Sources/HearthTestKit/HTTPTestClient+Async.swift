extension HTTPTestClient {
    /// One request on a new connection to `127.0.0.1:port`, made on a thread of its own: how an async test asks a
    /// node something without holding one of the cooperative pool's few threads while the node answers.
    public static func request(
        port: Int, _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = [],
        timeoutSeconds: Int = 60
    ) async throws -> Response {
        try await onDedicatedThread {
            try HTTPTestClient(port: port, timeoutSeconds: timeoutSeconds).request(
                method, target, body: body, headers: headers)
        }
    }
}
