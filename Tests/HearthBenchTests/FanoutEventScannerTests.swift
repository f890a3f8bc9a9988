import HearthSystem
import Testing

@testable import HearthBench

/// Events are found however the stream is cut into reads, each once, and only with all their digits.
@Suite struct FanoutEventScannerTests {
    private static func scan(_ chunks: [[UInt8]], target: FanoutOptions.Target) -> [Int] {
        var scanner = FanoutEventScanner(marker: target.eventMarker)
        var found: [Int] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { scanner.scan($0) { found.append($0) } }
        }
        return found
    }

    private static func hearthEvent(_ index: Int) -> [UInt8] {
        Array(#"{"t":"d","d":{"b":{"p":"room/m\#(FanoutOptions.Target.padded(index))","d":"x"},"a":"d"}}"#.utf8)
    }

    private static func redisEvent(_ index: Int) -> [UInt8] {
        Array("*3\r\n$7\r\nmessage\r\n$4\r\nroom\r\n$7\r\nm\(FanoutOptions.Target.padded(index))\r\n".utf8)
    }

    @Test func everyCutOfAStreamFindsTheSameEvents() {
        for (target, event) in [(FanoutOptions.Target.hearth, Self.hearthEvent), (.redis, Self.redisEvent)] {
            let stream = [3, 17, 4, 250_001].flatMap(event)
            for cut in 1..<stream.count {
                let found = Self.scan([Array(stream[..<cut]), Array(stream[cut...])], target: target)
                #expect(found == [3, 17, 4, 250_001], "\(target) cut at \(cut)")
            }
            let byteByByte = Self.scan(stream.map { [$0] }, target: target)
            #expect(byteByByte == [3, 17, 4, 250_001])
        }
    }

    @Test func otherPathsAndShortNumbersAreNotEvents() {
        let text = #"{"p":"room","d":null}{"p":"room/m12x456"}{"p":"rooms/m000001"}{"p":"room/m000009"}"#
        #expect(Self.scan([Array(text.utf8)], target: .hearth) == [9])
    }

    @Test func writesCarryTheirNumberAsEventsDo() {
        var random = BufferedSystemRandom()
        let publish = FanoutOptions.Target.redis.write(42, using: &random)
        #expect(String(decoding: publish, as: UTF8.self) == "*3\r\n$7\r\nPUBLISH\r\n$4\r\nroom\r\n$7\r\nm000042\r\n")
        #expect(FanoutOptions.Target.padded(7) == "000007" && FanoutOptions.Target.padded(123_456) == "123456")
    }

    @Test func theWriterCountsAnswersAndNamesARefusal() {
        let handshake = #"{"t":"c","d":{"t":"h","d":{"ts":1,"v":"5","h":"x","s":"session"}}}"#
        let ok = #"{"t":"d","d":{"r":2,"b":{"s":"ok","d":""}}}"#
        let denied = #"{"t":"d","d":{"r":3,"b":{"s":"permission_denied","d":"Permission denied"}}}"#
        let answered = FanoutWriter.answers(in: Array((handshake + ok + ok).utf8), target: .hearth)
        #expect(answered.answered == 2 && answered.refusal == nil)
        let refused = FanoutWriter.answers(in: Array((handshake + ok + denied).utf8), target: .hearth)
        #expect(refused.answered == 2 && refused.refusal?.hasPrefix("permission_denied") == true)
        let redis = FanoutWriter.answers(in: Array(":3\r\n:3\r\n-ERR wrong\r\n".utf8), target: .redis)
        #expect(redis.answered == 2 && redis.refusal == "-ERR wrong")
    }

    /// A REST writer's writes are PUTs of the same string to the same locations, and each HTTP status line is one
    /// answer: a `200` a write made, anything else a refusal named with its status.
    @Test func aRESTWriterPutsAndCountsStatusLines() {
        var options = FanoutOptions()
        options.writer = .rest
        var random = BufferedSystemRandom()
        let put = String(decoding: options.write(42, using: &random), as: UTF8.self)
        #expect(put.hasPrefix("PUT /room/m000042.json?ns=bench HTTP/1.1\r\n") && put.hasSuffix("\r\n\r\n\"x\""))
        #expect(!options.writerUpgrades)
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\"x\""
        let denied = "HTTP/1.1 401 Unauthorized\r\nContent-Length: 31\r\n\r\n{\"error\" : \"Permission denied\"}"
        let answered = FanoutWriter.answers(in: Array((ok + ok).utf8), target: .hearth, writer: .rest)
        #expect(answered.answered == 2 && answered.refusal == nil)
        let refused = FanoutWriter.answers(in: Array((ok + denied).utf8), target: .hearth, writer: .rest)
        #expect(refused.answered == 2 && refused.refusal?.hasPrefix("401 Unauthorized") == true)
    }
}
