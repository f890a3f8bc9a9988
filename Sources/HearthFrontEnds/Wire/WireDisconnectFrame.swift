import HearthNet
import HearthSystem

/// A long-polling browser's "disconnect frame" (`/.lp?dframe=t&id=…&pw=…`, reference §1.12), held open for the
/// life of its session so that its close tells the server at once that the client went away.
///
/// The JavaScript SDK loads this request in a hidden iframe and removes the iframe when the page unloads or the app
/// goes offline; the browser then drops the connection. The reply is a chunked page that never ends on its own:
/// when the peer closes the connection, the session winds down and runs its onDisconnects within moments instead of
/// after the stale-poll timeout. When the server ends the frame itself (the session finished, moved to a
/// WebSocket, or the client opened a newer frame) it sends an empty page and closes, and that close means nothing.
final class WireDisconnectFrame: HTTPStreamSession {
    /// The page the frame finally gets when the server releases it.
    static let emptyPage = Array("<html><body></body></html>".utf8)

    private let session: WireSession
    private let state = Lock(State())

    private struct State {
        var writer: ConnectionWriter?
        /// Set once the server released the frame or the connection closed; later events are ignored.
        var isReleased = false
    }

    init(session: WireSession) {
        self.session = session
    }

    /// The head of the held reply (the body follows only when the server releases the frame).
    static var head: HTTPResponse {
        HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: [])
    }

    func start(_ writer: ConnectionWriter) {
        let isReleased = self.state.withLock { state -> Bool in
            if !state.isReleased { state.writer = writer }
            return state.isReleased
        }
        if isReleased { Self.finish(writer) }
    }

    func connectionClosed() {
        let wasReleased = self.state.withLock { state -> Bool in
            defer {
                state.isReleased = true
                state.writer = nil
            }
            return state.isReleased
        }
        if !wasReleased { self.session.disconnectFrameClosed(self) }
    }

    /// The server ends the frame: sends the empty page and closes; the close is not a disconnect.
    func release() {
        let writer = self.state.withLock { state -> ConnectionWriter? in
            defer { state.writer = nil }
            state.isReleased = true
            return state.writer
        }
        if let writer { Self.finish(writer) }
    }

    private static func finish(_ writer: ConnectionWriter) {
        writer.write(Self.emptyPage)
        writer.close()
    }
}
