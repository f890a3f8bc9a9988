package import Foundation
import HearthSystem

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// A `RealtimeTransport` over Foundation's `URLSessionWebSocketTask`, for `wss://` (TLS comes from the platform).
///
/// swift-corelibs-foundation declares the task on Linux too, so this type is built (and type-checked) everywhere,
/// but there it runs on libcurl, which must be built with WebSocket support; a libcurl without it (the one Hearth is
/// tested with, for one) fails every attempt with `.unsupported`. Plain `ws://` always goes through
/// `WebSocketTransport`. Events come
/// from the session's delegate queue: `opened` from the delegate's open callback, text from a receive loop, and
/// `closed` once, from whichever of the close callback, the completion callback or a failed receive comes first.
package final class URLSessionTransport: NSObject, RealtimeTransport, URLSessionWebSocketDelegate {
    private let url: String
    private let state = Lock(State())

    private struct State {
        var events: (@Sendable (RealtimeTransportEvent) -> Void)?
        var session: URLSession?
        var task: URLSessionWebSocketTask?
        var isOpen = false
        var isFinished = false
    }

    /// - Parameter url: the whole realtime URL, `wss://host/.ws?v=5&ns=…`.
    package init(url: String) {
        self.url = url
    }

    package func start(events: @escaping @Sendable (RealtimeTransportEvent) -> Void) {
        guard let url = URL(string: self.url) else {
            self.state.withLock { $0.events = events }
            self.finish(RealtimeConnectionError(.invalidURL, "\"\(self.url)\" is not a URL."))
            return
        }
        let session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        let task = session.webSocketTask(with: url)
        self.state.withLock { state in
            state.events = events
            state.session = session
            state.task = task
        }
        task.resume()
    }

    package func send(text: String) {
        guard let task = self.state.withLock({ $0.isOpen && !$0.isFinished ? $0.task : nil }) else { return }
        task.send(.string(text)) { [weak self] error in
            guard let error else { return }
            self?.fail("Sending to \(self?.url ?? "the server") failed: \(error.localizedDescription)")
        }
    }

    package func close() {
        let task = self.state.withLock { $0.task }
        task?.cancel(with: .normalClosure, reason: nil)
        self.finish(nil)
    }

    package func urlSession(
        _ session: URLSession,
        webSocketTask: URLSessionWebSocketTask,
        didOpenWithProtocol protocol: String?
    ) {
        let events: (@Sendable (RealtimeTransportEvent) -> Void)? = self.state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isOpen = true
            return state.events
        }
        events?(.opened)
        self.receive(on: webSocketTask)
    }

    package func urlSession(
        _ session: URLSession,
        webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode,
        reason: Data?
    ) {
        guard closeCode != .normalClosure, closeCode != .goingAway else {
            self.finish(nil)
            return
        }
        self.fail("The server closed the WebSocket with code \(closeCode.rawValue).")
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let error else {
            self.finish(nil)
            return
        }
        let reason = error.localizedDescription
        guard !reason.contains("not supported by libcurl") else {
            self.finish(
                RealtimeConnectionError(
                    .unsupported,
                    "Foundation cannot open \(self.url) here: this system's libcurl has no WebSocket support. "
                        + "Use a ws:// URL (Hearth's own client) or a libcurl built with WebSockets."
                )
            )
            return
        }
        self.fail("The WebSocket to \(self.url) failed: \(reason)")
    }

    private func receive(on task: URLSessionWebSocketTask) {
        task.receive { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.string(let text)):
                let events = self.state.withLock { $0.isFinished ? nil : $0.events }
                events?(.text(text))
                self.receive(on: task)
            case .success:
                self.receive(on: task)
            case .failure(let error):
                self.fail("Reading from \(self.url) failed: \(error.localizedDescription)")
            }
        }
    }

    private func fail(_ message: String) {
        self.finish(RealtimeConnectionError(.connectionFailed, message))
    }

    /// Reports `closed` once and lets the session go (it holds its delegate strongly until invalidated).
    private func finish(_ error: RealtimeConnectionError?) {
        let (events, session): ((@Sendable (RealtimeTransportEvent) -> Void)?, URLSession?) = self.state.withLock {
            state in
            guard !state.isFinished else { return (nil, nil) }
            state.isFinished = true
            let taken = (state.events, state.session)
            state.events = nil
            state.session = nil
            state.task = nil
            return taken
        }
        session?.invalidateAndCancel()
        events?(.closed(error))
    }
}
