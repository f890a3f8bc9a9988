import HearthCore
import HearthNet
import HearthTestKit
import HearthWire

/// The realtime protocol: long-poll requests and their segments, WebSocket frames, and the messages inside.
extension FuzzTargets {
    /// Messages a client sends, in the shapes every official SDK uses.
    static let realtimeMessages = [
        #"{"t":"d","d":{"r":1,"a":"q","b":{"p":"/rooms/r1","h":""}}}"#,
        #"{"t":"d","d":{"r":2,"a":"q","b":{"p":"/s","q":{"sp":1,"ep":9,"l":5,"vf":"l","i":"score"},"t":1,"h":"x"}}}"#,
        #"{"t":"d","d":{"r":3,"a":"p","b":{"p":"/a/b","d":{"x":1.5,"y":[true,null,"s"],".priority":2}}}}"#,
        #"{"t":"d","d":{"r":4,"a":"m","b":{"p":"/a","d":{"b/c":{".sv":"timestamp"},"n":{".sv":{"increment":-1}}}}}}"#,
        #"{"t":"d","d":{"r":5,"a":"p","b":{"p":"/c","d":7,"h":"abc"}}}"#,
        #"{"t":"d","d":{"r":6,"a":"auth","b":{"cred":"owner"}}}"#,
        #"{"t":"d","d":{"r":7,"a":"o","b":{"p":"/presence/u","d":false}}}"#,
        #"{"t":"d","d":{"r":8,"a":"om","b":{"p":"/x","d":{"a":1}}}}"#,
        #"{"t":"d","d":{"r":9,"a":"oc","b":{"p":"/x"}}}"#,
        #"{"t":"d","d":{"r":10,"a":"n","b":{"p":"/rooms/r1","q":{"sin":true,"sn":"k","ein":false,"en":"z"}}}}"#,
        #"{"t":"d","d":{"r":11,"a":"g","b":{"p":"/q","q":{"i":".key","r":true,"l":1e3}}}}"#,
        #"{"t":"d","d":{"r":12,"a":"s","b":{"c":{"sdk.js.10-0-0":1}}}}"#,
        #"{"t":"c","d":{"t":"p","d":{}}}"#,
        #"{"t":"d","d":{"r":13,"a":"unauth","b":{}}}"#,
    ]

    /// Tokens of the realtime protocol's JSON.
    static let realtimeTokens = [
        #""r":"#, #""a":"#, #""b":"#, #""p":"#, #""d":"#, #""q":"#, #""h":"#, #""t":"#, #""sp":"#, #""ep":"#, #""l":"#,
        #""vf":"#, #""i":"#, #"".sv":"#, #""increment""#, #"".priority""#, "{", "}", "[", "]", ",", ":", "\"",
        "\\u0000",
        "\\ud800", "null", "true", "false", "\"/\"", "\"/a/.b\"", "\"$\"", "\"#\"", "1e999", "-0",
    ]

    /// Long-poll requests, one per line, on one session: each request's `seg<i>`/`ts<i>`/`d<i>` segments go to the
    /// reassembler as the server's `/.lp` handler reads them, and every message completed is decoded.
    static let longPoll = FuzzTarget(
        name: "long-poll", summary: "long-poll requests (start, ser, id, pw, seg/ts/d, dframe) and segment reassembly",
        texts: [Self.longPollRequests(Self.realtimeMessages.prefix(3), maximumLength: 40)]
            + [Self.longPollRequests(Self.realtimeMessages.suffix(4), maximumLength: 1840)]
            + [
                "/.lp?start=t&ser=1&cb=7&v=5&ns=x\n/.lp?dframe=t&id=s&pw=p\n"
                    + Self.longPollRequests([Self.realtimeMessages[12]])
            ],
        tokens: [
            "&seg", "&ts", "&d", "0=", "1=", "2=", "9223372036854775807", "-1", "=", "&", "\n", "%", "start=t", "ser=",
            "cb=", "id=", "pw=", "dframe=t", "-", "_", ".", "+", "/",
        ]
    ) { input throws(FuzzViolation) in
        var assembler = WireLongPollAssembler(maximumMessageBytes: 64 * 1024)
        var decoded = false
        for line in input.split(separator: UInt8(ascii: "\n")) {
            guard let (_, query) = try? HTTPTargetDecoder.decode(Self.text(Array(line))) else { continue }
            let parameter = { (name: String) in query.first { $0.name == name }?.value }
            var index = 0
            while let segment = parameter("seg\(index)").flatMap(Int.init),
                let total = parameter("ts\(index)").flatMap(Int.init), let data = parameter("d\(index)")
            {
                let received = WireLongPollAssembler.Segment(number: segment, total: total, data: data)
                guard let messages = try? assembler.receive(received) else { return decoded }
                for message in messages where (try? WireClientMessage(decoding: message)) != nil { decoded = true }
                index += 1
            }
        }
        return decoded
    }

    /// `messages` as a client's long-poll requests carry them, cut into segments of `maximumLength`.
    static func longPollRequests(_ messages: some Sequence<String>, maximumLength: Int = 1840) -> String {
        var number = 0
        var lines: [String] = []
        for message in messages {
            let segments = WireLongPollAssembler.segments(
                for: message, firstNumber: number, maximumLength: maximumLength)
            number += segments.count
            let query = segments.enumerated().map {
                "seg\($0.offset)=\($0.element.number)&ts\($0.offset)="
                    + "\($0.element.total)&d\($0.offset)=\($0.element.data)"
            }
            lines.append("/.lp?id=s1&pw=p1&ser=\(lines.count)&" + query.joined(separator: "&"))
        }
        return lines.joined(separator: "\n")
    }

    /// A client's WebSocket bytes: masked frames of every opcode, fragmented messages, control frames between
    /// fragments; the events must not depend on how the bytes are split.
    static let webSocket = FuzzTarget(
        name: "websocket", summary: "WebSocket frame parser: opcodes, masking, lengths, fragments, close codes, UTF-8",
        corpus: [
            Self.maskedFrame(.text, Array(#"{"t":"c","d":{"t":"p","d":{}}}"#.utf8))
                + Self.maskedFrame(.ping, [1, 2]) + Self.maskedFrame(.close, [0x03, 0xE8] + Array("bye".utf8)),
            Self.maskedFrame(.text, Array("2".utf8)) + Self.maskedFrame(.text, Array("héllo ".utf8), isFinal: false)
                + Self.maskedFrame(.pong, []) + Self.maskedFrame(.continuation, Array("wörld".utf8)),
            Self.maskedFrame(.binary, Array(repeating: 0xAB, count: 300))
                + Self.maskedFrame(.text, Array(repeating: UInt8(ascii: "x"), count: 70_000)),
            Self.maskedFrame(.close, []),
        ],
        dictionary: [
            [0x81], [0x01], [0x80], [0x88], [0x89], [0x8A], [0x82], [0x00], [0xFE], [0xFF], [0x7E], [0x7F],
            [0xFE, 0xFF, 0xFF], [0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xC3, 0x28],
            [0xED, 0xA0, 0x80],
        ]
    ) { input throws(FuzzViolation) in
        let whole = Self.webSocketEvents([input[...]])
        let split = Self.webSocketEvents(Self.pieces(input))
        try FuzzViolation.check(whole == split, "fed whole: \(whole), fed in pieces: \(split)")
        // Read as the reactor reads it (a whole text frame that ends the input left in place): the same events.
        for pieces in [[input[...]], Self.pieces(input)] {
            let inPlace = Self.webSocketEvents(pieces, inPlace: true)
            try FuzzViolation.check(inPlace == whole, "read in place: \(inPlace), as events: \(whole)")
        }
        return !whole.isEmpty && whole.last?.hasPrefix("error") == false
    }

    /// A frame as a client sends it, masked.
    private static func maskedFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], isFinal: Bool = true) -> [UInt8] {
        WebSocketFrameEncoder.encodeFrame(
            opcode, payload: payload, isFinal: isFinal, maskingKey: WebSocketMaskingKey(0x1234_5678))
    }

    /// The events (text as its length, to keep comparisons cheap) and the error code, for `pieces` fed in turn;
    /// with `inPlace`, read by `nextInbound()`, a message left in place shown as the `String` of its bytes.
    private static func webSocketEvents(_ pieces: [ArraySlice<UInt8>], inPlace: Bool = false) -> [String] {
        var parser = WebSocketFrameParser(maximumMessageBytes: 128 * 1024)
        var events: [String] = []
        for piece in pieces {
            parser.append(piece)
            do {
                while let inbound = try inPlace
                    ? parser.nextInbound() : parser.nextEvent().map(WebSocketFrameParser.Inbound.event)
                {
                    let event: WebSocketEvent
                    switch inbound {
                    case .event(let next): event = next
                    case .textInPlace(let text): event = .text(text.withUTF8 { String(decoding: $0, as: UTF8.self) })
                    }
                    switch event {
                    case .text(let text): events.append("text \(text.utf8.count)")
                    case .binary(let bytes): events.append("binary \(bytes.count)")
                    case .ping(let bytes): events.append("ping \(bytes)")
                    case .pong(let bytes): events.append("pong \(bytes)")
                    case .close(let code, let reason): events.append("close \(code.map(String.init) ?? "-") \(reason)")
                    }
                }
            } catch {
                return events + ["error \(error.closeCode) \(error.code)"]
            }
        }
        return events
    }

    /// Realtime messages as WebSocket text frames (one per line): the frame reassembler (counts, keep-alives,
    /// size limit), then the message decoder; a decoded message re-encodes to one that decodes the same.
    static let realtime = FuzzTarget(
        name: "realtime",
        summary:
            "realtime messages: frame counts and reassembly, envelopes, every action's body, direct write decoding",
        texts: [
            Self.realtimeMessages.joined(separator: "\n"),
            "2\n" + #"{"t":"d","d":{"r":1,"a":"#
                + "\n" + #""q","b":{"p":"/"}}}"# + "\n0\n" + Self.realtimeMessages[3],
        ],
        tokens: Self.realtimeTokens + ["\n", "\n3\n", "\n0\n", "\n9999\n"]
    ) { input throws(FuzzViolation) in
        var assembler = WireFrameAssembler(maximumMessageBytes: 64 * 1024)
        // One input's messages share the direct decoder's scratch, as one connection's do.
        var scratch = WireWrite.Scratch()
        var accepted = false
        for frame in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let message: String?
            do {
                message = try assembler.onFrame(Self.text(Array(frame)))
            } catch {
                return accepted
            }
            guard let message else { continue }
            if let mismatch = WriteDecoderDifferential.realtimeMismatch(message, reusing: &scratch) {
                throw FuzzViolation("a write decoded directly differs from the general way: \(mismatch)")
            }
            guard let decoded = try? WireClientMessage(decoding: message) else { continue }
            let encoded = decoded.encoded()
            let again: WireClientMessage
            do {
                again = try WireClientMessage(decoding: Self.text(encoded))
            } catch {
                throw FuzzViolation("\(message) decodes, but its encoding \(Self.text(encoded)) does not: \(error)")
            }
            try FuzzViolation.check(
                again.encoded() == encoded, "\(Self.text(encoded)) re-encodes as \(Self.text(again.encoded()))")
            accepted = true
        }
        return accepted
    }
}
