import Foundation
import HearthNet
import HearthTestKit
import Testing

/// Answers every request with one of a few responses (chosen by the path's last character) either written ahead
/// (`.encoded`, under `/e`) or as a plain `.response` (any other path), and lets pipelined writes share batches when
/// asked to, so their answers leave through the batch path.
private struct EncodingHandler: HTTPRequestHandler {
    let batching: Bool

    /// A write's JSON answer, a Firebase error, an answer with an ETag and no body, and one with a long body.
    static let answers: [HTTPResponse] = [
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"), ("Access-Control-Allow-Origin", "*"),
            ]),
            body: Array(#"{"posts/p/stars/u":true,"posts/p/starCount":3}"#.utf8)),
        HTTPResponse.jsonError(status: 401, message: "Permission denied"),
        HTTPResponse(status: 201, headers: HTTPHeaders([("ETag", "\"e\"")])),
        HTTPResponse(status: 200, body: Array(repeating: UInt8(ascii: "x"), count: 70_000)),
    ]

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        self.batching && method == "PUT"
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        Self.answer(request)
    }

    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        requests.map(Self.answer)
    }

    private static func answer(_ request: HTTPRequest) -> HTTPReply {
        let index = Int(request.path.utf8.last.map { $0 &- UInt8(ascii: "0") } ?? 0) % Self.answers.count
        let response = Self.answers[index]
        guard request.path.hasPrefix("/e"),
            let head = HTTPEncodedHead(status: response.status, headers: response.headers)
        else { return .response(response) }
        return .encoded(HTTPEncodedResponse(head: head, bodyCapacity: response.body.count) { $0 += response.body })
    }
}

/// An answer written ahead reaches the client byte for byte as the same plain response does, whatever the request
/// asks of its framing: HTTP/1.1 kept open, pipelined alone or in batches, `HEAD`, HTTP/1.0 with and without
/// keep-alive, and a request that closes the connection.
@Suite(.serialized) struct HTTPServerEncodedLoopbackTests {
    /// Request sequences, each ending with the server closing the connection; `@` becomes `/e` or `/p`.
    private static let sequences: [String] = [
        "GET @0 HTTP/1.1\r\nHost: h\r\n\r\nGET @1 HTTP/1.1\r\nHost: h\r\n\r\nGET @3 HTTP/1.1\r\nHost: h\r\n\r\n"
            + "GET @2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "PUT @0 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhiPUT @1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"
            + "hiPUT @3 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhiPUT @2 HTTP/1.1\r\nHost: h\r\n"
            + "Content-Length: 2\r\nConnection: close\r\n\r\nhi",
        "HEAD @0 HTTP/1.1\r\nHost: h\r\n\r\nHEAD @1 HTTP/1.1\r\nHost: h\r\n\r\nHEAD @2 HTTP/1.1\r\nHost: h\r\n\r\n"
            + "GET @0 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "GET @0 HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET @1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
            + "GET @3 HTTP/1.0\r\n\r\n",
        "GET @1 HTTP/1.0\r\n\r\n",
        "PUT @0 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhiPUT @1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"
            + "hiGET @2 HTTP/1.0\r\n\r\n",
    ]

    /// What the server sends for `sequence` with paths under `prefix`, read until it closes.
    private static func exchange(_ sequence: String, prefix: String, port: Int) async throws -> [UInt8] {
        try await onDedicatedThread {
            let client = try HTTPTestClient(port: port)
            try client.send(sequence.replacingOccurrences(of: "@", with: prefix))
            return client.readUntilClosed()
        }
    }

    /// Each sequence, answered one request at a time and in batches: the same bytes with answers written ahead as
    /// with plain responses (and the plain answers are not empty, so the comparison means something).
    @Test(arguments: [false, true])
    func sendsTheBytesOfThePlainResponse(batching: Bool) async throws {
        try await withServer(handler: EncodingHandler(batching: batching)) { _, port in
            for sequence in Self.sequences {
                let plain = try await Self.exchange(sequence, prefix: "/p", port: port)
                let encoded = try await Self.exchange(sequence, prefix: "/e", port: port)
                #expect(plain.count > 100)
                #expect(
                    String(decoding: encoded, as: UTF8.self) == String(decoding: plain, as: UTF8.self),
                    "\(sequence.prefix(40))")
            }
        }
    }
}
