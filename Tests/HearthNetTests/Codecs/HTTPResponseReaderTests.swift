import HearthNet
import HearthTestKit
import Testing

/// A comparable summary of a response the reader produced.
private struct ReadResponse: Equatable {
    var status: Int
    var headers: [String]
    var body: String
}

/// Feeds `input` to the reader as a client would: after each chunk, everything so far, then the close.
private func readAll(_ input: String, chunkSizes: [Int] = [], method: String = "GET") throws(HTTPClientError)
    -> ReadResponse?
{
    let bytes = Array(input.utf8)
    var received: [UInt8] = []
    var sizes = chunkSizes[...]
    while received.count < bytes.count {
        let size = max(1, sizes.popFirst() ?? bytes.count)
        received += bytes[received.count..<min(bytes.count, received.count + size)]
        if let response = try HTTPResponseReader.read(received, atEnd: false, method: method) {
            return ReadResponse(response)
        }
    }
    return try HTTPResponseReader.read(received, atEnd: true, method: method).map(ReadResponse.init)
}

extension ReadResponse {
    init(_ response: HTTPResponse) {
        self.init(
            status: response.status, headers: response.headers.map { "\($0.name): \($0.value)" }, body: response.text)
    }
}

@Suite struct HTTPResponseReaderTests {
    private static let framings = [
        "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Type: application/json\r\n\r\n{\"ready\":1}",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"re\r\n7\r\nady\":1}\r\n0\r\nX-T: 1\r\n\r\n",
        "HTTP/1.0 200 OK\r\nServer:   padded  \r\n\r\n{\"ready\":1}",
    ]

    @Test func readsEachFramingTheSameWhetherBytesArriveAtOnceOneByOneOrInRandomChunks() throws {
        var random = SeededRandom(seed: 11)
        for input in Self.framings {
            let whole = try #require(try readAll(input))
            #expect(whole.status == 200)
            #expect(whole.body == #"{"ready":1}"#)
            #expect(try readAll(input, chunkSizes: Array(repeating: 1, count: input.utf8.count)) == whole)
            for _ in 0..<20 {
                let sizes = (0..<input.utf8.count).map { _ in Int.random(in: 1...9, using: &random) }
                #expect(try readAll(input, chunkSizes: sizes) == whole, "\(sizes)")
            }
        }
        #expect(try readAll(Self.framings[2])?.headers == ["Server: padded"])
    }

    @Test func waitsForTheWholeBodyBeforeAnswering() throws {
        let partial = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\n\r\nab".utf8)
        #expect(try HTTPResponseReader.read(partial, atEnd: false, method: "GET") == nil)
        let open = Array("HTTP/1.1 200 OK\r\n\r\nbody so far".utf8)
        #expect(try HTTPResponseReader.read(open, atEnd: false, method: "GET") == nil)
        #expect(try HTTPResponseReader.read(open, atEnd: true, method: "GET")?.text == "body so far")
    }

    @Test func aHeadRequestAndBodylessStatusesEndAtTheHead() throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n".utf8)
        #expect(try HTTPResponseReader.read(head, atEnd: false, method: "HEAD")?.body == [])
        let noContent = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)
        #expect(try HTTPResponseReader.read(noContent, atEnd: false, method: "GET")?.status == 204)
    }

    @Test func refusesWhatIsNotAnHTTPResponse() {
        let cases = [
            "SSH-2.0-OpenSSH\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
            "HTTP/1.1 200 OK\r\nContent-Le",
        ]
        for input in cases {
            #expect(throws: HTTPClientError.self, "\(input.debugDescription)") { try readAll(input) }
            do {
                _ = try readAll(input)
            } catch {
                #expect(error.code == .malformedResponse)
                #expect(error.message.hasPrefix("The answer is not an HTTP/1.1 response"))
            }
        }
    }
}
