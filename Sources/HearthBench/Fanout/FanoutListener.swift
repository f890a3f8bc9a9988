import HearthNet
import HearthSystem

/// One listener of a fan-out run on its event loop: it opens (upgrading to WebSocket for Hearth), subscribes, says
/// so once the server confirms, then notes the arrival of every event it reads. Confined to the loop's thread.
final class FanoutListener: ConnectionHandler {
    private enum Phase {
        case upgrading(head: [UInt8], key: String)
        case subscribing(seen: [UInt8])
        case listening
    }

    private let target: FanoutOptions.Target
    private let server: String
    private let namespace: String
    private let slot: Int
    private let arrivals: FanoutArrivals
    private var phase: Phase
    private var scanner: FanoutEventScanner
    private var heard = Set<Int>()
    /// Set once this listener has reported its own failure, so its close adds no second report.
    private var hasFailed = false
    private var random = BufferedSystemRandom()

    init(target: FanoutOptions.Target, server: String, namespace: String, slot: Int, arrivals: FanoutArrivals) {
        self.target = target
        self.server = server
        self.namespace = namespace
        self.slot = slot
        self.arrivals = arrivals
        self.scanner = FanoutEventScanner(marker: target.eventMarker)
        self.phase = .subscribing(seen: [])
        if target.upgrades {
            self.phase = .upgrading(head: [], key: WebSocketClientHandshake.makeKey(using: &self.random))
        }
    }

    func connectionOpened(_ connection: Connection) {
        switch self.phase {
        case .upgrading(_, let key):
            connection.enqueue(
                WebSocketClientHandshake.request(
                    target: FanoutOptions.Target.webSocketTarget(namespace: self.namespace), host: self.server,
                    key: key))
        case .subscribing, .listening:
            connection.enqueue(self.target.subscribe(using: &self.random))
        }
        connection.flush()
    }

    func connectFailed(_ error: IOError) {
        self.arrivals.failed("listener \(self.slot) could not connect to \(self.server): \(error.message)")
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        switch self.phase {
        case .listening:
            let now = MonotonicClock.now()
            self.scanner.scan(bytes) { write in
                self.heard.insert(write)
                self.arrivals.arrived(slot: self.slot, write: write, at: now, heard: self.heard.count)
            }
        case .upgrading(var head, let key):
            head.append(contentsOf: bytes)
            guard let length = WebSocketClientHandshake.headLength(in: head) else {
                self.phase = .upgrading(head: head, key: key)
                return
            }
            do {
                try WebSocketClientHandshake.check(head: Array(head[..<length]), key: key)
            } catch {
                self.fail(connection, "the WebSocket upgrade failed: \(error.message)")
                return
            }
            self.phase = .subscribing(seen: Array(head[length...]))
            connection.enqueue(self.target.subscribe(using: &self.random))
            connection.flush()
        case .subscribing(var seen):
            seen.append(contentsOf: bytes)
            self.phase = .subscribing(seen: seen)
            if seen.firstRange(of: self.target.readyMarker) != nil {
                self.phase = .listening
                self.arrivals.subscribed()
            }
        }
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        guard !self.hasFailed, self.heard.count < self.arrivals.writes else { return }
        let reason = error.map { ": \($0.message)" } ?? ""
        self.arrivals.failed("listener \(self.slot)'s connection closed after \(self.heard.count) events\(reason)")
    }

    private func fail(_ connection: Connection, _ reason: String) {
        self.arrivals.failed("listener \(self.slot): \(reason)")
        self.hasFailed = true
        connection.close()
    }
}
