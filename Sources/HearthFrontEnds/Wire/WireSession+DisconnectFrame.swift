import HearthCore
import HearthSystem

/// Holding a long-polling client's disconnect frame, and treating its close as the client leaving (§1.12).
extension WireSession {
    /// Holds `frame` open while this session lives on its long poll, releasing any older frame.
    /// - Returns: `false` when the session has ended or moved to a WebSocket; the caller answers at once.
    func holdDisconnectFrame(_ frame: WireDisconnectFrame) -> Bool {
        let (isHeld, previous) = self.shared.withLock { shared -> (Bool, WireDisconnectFrame?) in
            guard !shared.isTerminated, !shared.isSwitched, shared.transport is WireLongPollTransport else {
                return (false, nil)
            }
            let previous = shared.disconnectFrame
            shared.disconnectFrame = frame
            return (true, previous)
        }
        previous?.release()
        return isHeld
    }

    /// The client dropped its disconnect frame: when the session still lives on the long poll, the client is
    /// gone, so the long poll closes and the session winds down (processing what already arrived, then running the
    /// onDisconnects), as it does when a WebSocket closes.
    func disconnectFrameClosed(_ frame: WireDisconnectFrame) {
        let longPoll = self.shared.withLock { shared -> WireLongPollTransport? in
            guard shared.disconnectFrame === frame else { return nil }
            shared.disconnectFrame = nil
            guard !shared.isSwitched else { return nil }
            return shared.transport as? WireLongPollTransport
        }
        guard let longPoll else { return }
        self.context.log.debug("wire.long_poll_left", ["session": self.id])
        longPoll.close(reason: "The client closed its disconnect frame.")
        self.transportClosed()
    }

    /// Ends the held disconnect frame, if any, without treating its close as a disconnect.
    func releaseDisconnectFrame() {
        let frame = self.shared.withLock { shared -> WireDisconnectFrame? in
            defer { shared.disconnectFrame = nil }
            return shared.disconnectFrame
        }
        frame?.release()
    }
}
