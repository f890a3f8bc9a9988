import CHearthSystem
import Glibc
import HearthSystem
import Synchronization

/// A connection `accept` took off the listener: its non-blocking descriptor and the peer as `host:port`.
package typealias AcceptedSocket = (descriptor: Int32, remoteAddress: String)

/// How the reactor takes one pending connection off the listening socket: `Socket.accept` in production; tests
/// substitute a function that fails with `EMFILE` without exhausting the shared test process's descriptors.
///
/// Returns `nil` when no connection is pending, and throws an `IOError` carrying the errno when `accept` fails.
package typealias AcceptFunction = @Sendable (_ listener: Int32) throws(IOError) -> AcceptedSocket?

/// Accepting connections, and pausing when the process runs out of descriptors or memory.
///
/// The listener is level-triggered, so after an `accept` failure that leaves the connection queued (`EMFILE`,
/// `ENFILE`, `ENOBUFS`, `ENOMEM`) it would be reported readable again at once and the loop would spin at full CPU
/// until a descriptor freed up. Instead the reactor stops watching it (`EPOLL_CTL_MOD` to no events) and watches it
/// again when a connection closes, which frees a descriptor, or after `Settings.acceptBackoff`, whichever comes
/// first. Each such failure counts in `NetworkStatistics.acceptFailures`.
extension Reactor {
    /// What one failed `accept` means for the listener.
    private enum AcceptFailure {
        /// The pending connection died before it was accepted; the next one may be fine.
        case connectionLost
        /// The process or the system is out of a resource; the connection stays queued.
        case exhausted
    }

    /// Accepts up to `maximumEvents` pending connections, registering each one edge-triggered.
    func acceptConnections() {
        guard let listener = self.listener, self.listenerRetryDeadline == nil else { return }
        for _ in 0..<Self.maximumEvents {
            let accepted: AcceptedSocket?
            do {
                accepted = try listener.accept(listener.descriptor)
            } catch {
                switch Self.classify(error) {
                case .connectionLost:
                    continue
                case .exhausted:
                    self.counters.acceptFailures.add(1, ordering: .relaxed)
                    self.pauseAccepting()
                    return
                }
            }
            guard let accepted else { return }
            self.counters.acceptedConnections.add(1, ordering: .relaxed)
            guard self.connections.count < self.settings.maximumConnections else {
                Syscall.close(accepted.descriptor)
                continue
            }
            self.open(accepted, handler: listener.makeHandler())
        }
    }

    /// Called when a connection closes: its descriptor is free again, so a paused listener is watched at once.
    func connectionClosed() {
        guard self.listenerRetryDeadline != nil else { return }
        self.resumeAccepting()
    }

    /// Called when the back-off timer stored under `listenerToken` fires.
    func listenerRetryTimerFired(deadline: UInt64) {
        guard self.listenerRetryDeadline == deadline else { return }
        self.resumeAccepting()
    }

    private func open(_ accepted: AcceptedSocket, handler: any ConnectionHandler) {
        let id = self.makeID()
        let flags = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        do {
            try self.register(accepted.descriptor, token: id, events: flags)
        } catch {
            Syscall.close(accepted.descriptor)
            return
        }
        let connection = Connection(
            id: id,
            descriptor: accepted.descriptor,
            remoteAddress: accepted.remoteAddress,
            writer: ConnectionWriter(id: id, limit: self.settings.outboundBufferLimit, inbox: self.inbox),
            reactor: self,
            handler: handler,
            state: .active
        )
        self.connections[id] = connection
        self.counters.openConnections.add(1, ordering: .relaxed)
        handler.connectionOpened(connection)
    }

    /// Stops watching the listener and schedules the back-off timer that resumes it.
    ///
    /// `EPOLL_CTL_MOD` never allocates, so unlike a delete and re-add it cannot fail for lack of memory just when
    /// memory is short. Edge-triggered with no events: `EPOLLHUP`/`EPOLLERR`, which epoll always reports, could
    /// arrive at most once and are then ignored while paused.
    private func pauseAccepting() {
        guard let listener = self.listener else { return }
        do {
            try self.modify(listener.descriptor, token: Self.listenerToken, events: EPOLLET.rawValue)
        } catch {
            // Only a descriptor bug makes MOD fail; the listener then stays watched and nothing is paused.
            return
        }
        self.scheduleAcceptRetry()
    }

    private func scheduleAcceptRetry() {
        let deadline = MonotonicClock.now() &+ self.settings.acceptBackoff
        self.listenerRetryDeadline = deadline
        self.timers.push(TimerHeap.Entry(deadline: deadline, key: Self.listenerToken))
    }

    /// Watches the listener again; the level-triggered report on the next `epoll_wait` accepts whatever queued up
    /// meanwhile, so no accept runs inside the close that triggered this.
    private func resumeAccepting() {
        self.listenerRetryDeadline = nil
        guard let listener = self.listener else { return }
        do {
            try self.modify(listener.descriptor, token: Self.listenerToken, events: EPOLLIN.rawValue)
        } catch {
            self.scheduleAcceptRetry()
        }
    }

    /// Sorts an `accept` error (see accept(2)): network errors on the pending connection are passed over, as
    /// Linux asks; resource exhaustion, and anything unexpected, pauses the listener so the loop cannot spin.
    private static func classify(_ error: IOError) -> AcceptFailure {
        switch error.errorNumber {
        case ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP,
            ENETUNREACH:
            return .connectionLost
        default:
            return .exhausted
        }
    }
}
