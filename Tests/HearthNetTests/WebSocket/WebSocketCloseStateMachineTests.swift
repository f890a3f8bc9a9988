import HearthNet
import Testing

/// Close handshakes as transcripts: one event, the actions it must produce.
@Suite struct WebSocketCloseStateMachineTests {
    @Test func serverInitiatedCloseWaitsForThePeersClose() {
        var machine = WebSocketCloseStateMachine()
        #expect(
            machine.onCloseRequested(code: 1001, reason: "restart") == [
                .sendClose(code: 1001, reason: "restart"), .startCloseTimer,
            ]
        )
        #expect(!machine.canSendData)
        #expect(machine.onCloseRequested(code: 1000, reason: "again") == [])
        #expect(
            machine.onPeerClose(code: 1001, reason: "") == [.closeConnection, .notifyClosed(code: 1001, reason: "")]
        )
        #expect(machine.state == .closed)
        #expect(machine.onConnectionClosed() == [])
        #expect(machine.onCloseTimeout() == [])
    }

    @Test func serverInitiatedCloseDropsTheSocketWhenThePeerNeverAnswers() {
        var machine = WebSocketCloseStateMachine()
        #expect(
            machine.onCloseRequested(code: 1000, reason: "") == [.sendClose(code: 1000, reason: ""), .startCloseTimer]
        )
        #expect(machine.onCloseTimeout() == [.closeConnection])
        #expect(machine.onConnectionClosed() == [.notifyClosed(code: 1006, reason: "")])
        #expect(machine.onConnectionClosed() == [])
    }

    @Test func peerCloseIsEchoedWithTheSameCode() {
        var machine = WebSocketCloseStateMachine()
        #expect(
            machine.onPeerClose(code: 4001, reason: "bye") == [
                .sendClose(code: 4001, reason: ""), .closeConnection, .notifyClosed(code: 4001, reason: "bye"),
            ]
        )
        #expect(!machine.canSendData)
        #expect(machine.onCloseRequested(code: 1000, reason: "") == [])
        #expect(machine.onPeerClose(code: 1000, reason: "") == [])
    }

    @Test func peerCloseWithoutACodeIsEchoedWithoutOne() {
        var machine = WebSocketCloseStateMachine()
        #expect(
            machine.onPeerClose(code: nil, reason: "") == [
                .sendClose(code: nil, reason: ""), .closeConnection, .notifyClosed(code: nil, reason: ""),
            ]
        )
    }

    @Test(arguments: [999, 1004, 1005, 1006, 1015, 5000] as [UInt16])
    func invalidPeerCloseCodesAreAnsweredWith1002(code: UInt16) {
        var machine = WebSocketCloseStateMachine()
        let actions = machine.onPeerClose(code: code, reason: "")
        #expect(actions.count == 3)
        #expect(actions.first == .sendClose(code: 1002, reason: "Close code \(code) may not be sent."))
        #expect(actions.dropFirst().first == .closeConnection)
        #expect(machine.state == .closed)
    }

    @Test(arguments: [1005, 1006, 1015] as [UInt16])
    func localOnlyCodesAreNeverSent(code: UInt16) {
        var machine = WebSocketCloseStateMachine()
        #expect(
            machine.onCloseRequested(code: code, reason: "x") == [.sendClose(code: nil, reason: ""), .startCloseTimer]
        )
    }

    @Test func protocolErrorsFailTheConnectionWithTheirCode() {
        var machine = WebSocketCloseStateMachine()
        let error = WebSocketProtocolError(.invalidUTF8, closeCode: 1007, "bad text")
        #expect(
            machine.onProtocolError(error) == [
                .sendClose(code: 1007, reason: "bad text"), .closeConnection,
                .notifyClosed(code: 1007, reason: "bad text"),
            ]
        )
        #expect(machine.onConnectionClosed() == [])
    }

    @Test func aProtocolErrorAfterOurCloseOnlyDropsTheSocket() {
        var machine = WebSocketCloseStateMachine()
        _ = machine.onCloseRequested(code: 1000, reason: "")
        let error = WebSocketProtocolError(.unmaskedFrame, closeCode: 1002, "unmasked")
        #expect(machine.onProtocolError(error) == [.closeConnection, .notifyClosed(code: 1002, reason: "unmasked")])
    }

    @Test func aDroppedConnectionIsReportedAs1006Once() {
        var machine = WebSocketCloseStateMachine()
        #expect(machine.onConnectionClosed() == [.notifyClosed(code: 1006, reason: "")])
        #expect(machine.onConnectionClosed() == [])
        #expect(machine.onPeerClose(code: 1000, reason: "") == [])
        #expect(machine.onCloseRequested(code: 1000, reason: "") == [])
    }
}
