import HearthTestKit

@testable import HearthNet

/// A comparable summary of what the parser produced for one request, for transcript-style expectations.
struct ParsedRequest: Equatable, CustomStringConvertible {
    var method: String
    var target: String
    var path: String
    var query: [String]
    var version: String
    var headers: [String]
    var body: [UInt8]
    var isKeepAlive: Bool
    var expectsContinue: Bool

    var description: String { "\(self.method) \(self.target) body=\(self.body.count)B" }
}

/// One parser outcome: a request or the error that ended parsing.
enum ParseOutcome: Equatable {
    case request(ParsedRequest)
    case failure(code: HTTPParserError.Code, status: Int)
}

/// Feeds `input` to a fresh parser in the given chunk sizes (the rest in one piece), accepting bodies up to
/// `bodyLimit`, and collects every outcome.
func parseAll(
    _ input: [UInt8],
    chunkSizes: [Int] = [],
    bodyLimit: Int = 1 << 20,
    maximumHeaderBytes: Int = 8 * 1024
) -> [ParseOutcome] {
    var parser = HTTPRequestParser(maximumHeaderBytes: maximumHeaderBytes)
    var outcomes: [ParseOutcome] = []
    var pendingHead: HTTPRequestHead?
    var offset = 0
    var sizes = chunkSizes[...]
    var isFailed = false
    while offset < input.count, !isFailed {
        let size = sizes.popFirst() ?? input.count
        let end = min(input.count, offset + max(1, size))
        parser.append(Array(input[offset..<end]))
        offset = end
        events: while true {
            switch parser.next() {
            case .needMoreData:
                break events
            case .head(let head):
                pendingHead = head
                if let error = parser.acceptBody(limit: bodyLimit) {
                    outcomes.append(.failure(code: error.code, status: error.status))
                    isFailed = true
                    break events
                }
            case .body(let body):
                guard let head = pendingHead else {
                    outcomes.append(.failure(code: .malformedRequest, status: -1))
                    isFailed = true
                    break events
                }
                pendingHead = nil
                outcomes.append(
                    .request(
                        ParsedRequest(
                            method: head.method,
                            target: head.target,
                            path: head.path,
                            query: head.query.map { "\($0.name)=\($0.value)" },
                            version: head.version,
                            headers: head.headers.map { "\($0.name): \($0.value)" },
                            body: body,
                            isKeepAlive: head.isKeepAlive,
                            expectsContinue: head.expectsContinue
                        )
                    )
                )
            case .failure(let error):
                outcomes.append(.failure(code: error.code, status: error.status))
                isFailed = true
                break events
            }
        }
    }
    return outcomes
}

/// Random chunk sizes covering `count` bytes, from `random`.
func randomChunkSizes(count: Int, using random: inout SeededRandom) -> [Int] {
    var sizes: [Int] = []
    var covered = 0
    while covered < count {
        let size = Int.random(in: 1...max(1, min(64, count - covered)), using: &random)
        sizes.append(size)
        covered += size
    }
    return sizes
}

extension String {
    var bytes: [UInt8] { Array(self.utf8) }
}
