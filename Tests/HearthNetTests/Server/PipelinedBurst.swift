import HearthTestKit

@testable import HearthNet

/// The burst the batching loopback tests send: pipelined PUTs of `/0` … `/count-1` on one keep-alive connection,
/// then a GET of `/last`, which no batch shares.
enum PipelinedBurst {
    /// Sends the burst to `port` from a dedicated thread and returns every answer's body, in the order received.
    static func send(count: Int, port: Int) async throws -> [String] {
        try await onDedicatedThread {
            let client = try HTTPTestClient(port: port)
            var burst = ""
            for index in 0..<count {
                burst += "PUT /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
            }
            try client.send(burst + "GET /last HTTP/1.1\r\nHost: h\r\n\r\n")
            return try (0...count).map { _ in try client.readResponse().text }
        }
    }

    /// The bodies the burst gets back when every request is answered with its own path, in order.
    static func expected(count: Int) -> [String] {
        (0..<count).map { "/\($0)" } + ["/last"]
    }

    /// A 200 whose body is the request's path.
    static func echoPath(_ request: HTTPRequest) -> HTTPReply {
        .response(HTTPResponse(status: 200, body: Array(request.path.utf8)))
    }
}
