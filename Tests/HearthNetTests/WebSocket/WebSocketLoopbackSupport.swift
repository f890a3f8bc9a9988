import HearthNet
import Synchronization

/// A message handler that logs every callback and can echo text back or close on request.
final class RecordingMessageHandler: WebSocketMessageHandler {
    let log = EventLog()
    private let socket = Mutex<WebSocketConnection?>(nil)
    private let isEcho: Bool
    private let pingsOnOpen: Bool

    init(isEcho: Bool = false, pingsOnOpen: Bool = false) {
        self.isEcho = isEcho
        self.pingsOnOpen = pingsOnOpen
    }

    func opened(_ socket: WebSocketConnection) {
        self.socket.withLock { $0 = socket }
        self.log.append("opened")
        if self.pingsOnOpen { socket.sendPing(Array("server".utf8)) }
    }

    func received(text: String) {
        self.log.append("text:\(text)")
        guard self.isEcho, let socket = self.socket.withLock({ $0 }) else { return }
        if text.hasPrefix("close:") {
            socket.close(code: 4000, reason: String(text.dropFirst(6)))
            self.log.append("sendAfterClose:\(socket.send(text: "late"))")
        } else {
            socket.send(text: text)
        }
    }

    func received(binary: [UInt8]) {
        self.log.append("binary:\(binary.count)")
        guard self.isEcho, let socket = self.socket.withLock({ $0 }) else { return }
        socket.send(binary: binary)
    }

    func closed(code: UInt16?, reason: String) {
        self.log.append("closed:\(code.map(String.init) ?? "nil"):\(reason)")
    }
}
