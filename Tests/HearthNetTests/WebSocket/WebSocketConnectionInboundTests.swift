import HearthNet
import Testing

/// What a WebSocket reports after each read, without a socket: the server charges and watches what it says.
@Suite struct WebSocketConnectionInboundTests {
    /// Taking bytes reports the held bytes and whether a message is in progress exactly as asking the connection
    /// afterwards does, from a frame's first half to its end, and the message is delivered once it is whole.
    @Test func receivedHoldingReportsWhatTheConnectionThenHolds() {
        let messages = RecordingMessageHandler()
        let socket = WebSocketConnection(handler: messages)
        let frame = clientText(#"{"t":"d","d":{"r":1,"a":"m","b":{"p":"/","d":{"a":1}}}}"#)
        let half = frame.count / 2
        var states: [UpgradedInboundState] = []
        for piece in [frame[..<half], frame[half...]] {
            let state = Array(piece).withUnsafeBytes { socket.receivedHolding($0) }
            #expect(
                state == UpgradedInboundState(heldBytes: socket.heldInboundBytes, isMidMessage: socket.isMidMessage))
            states.append(state)
        }
        #expect(states.first?.isMidMessage == true && (states.first?.heldBytes ?? 0) > 0)
        #expect(states.last == UpgradedInboundState(heldBytes: 0, isMidMessage: false))
        #expect(messages.log.all == [#"text:{"t":"d","d":{"r":1,"a":"m","b":{"p":"/","d":{"a":1}}}}"#])
    }
}
