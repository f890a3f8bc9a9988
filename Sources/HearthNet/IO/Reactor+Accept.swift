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

/// Accepting connections; making room when the node is full; pausing when the process runs out of descriptors or
/// memory.
///
/// When the reactor holds `maximumConnections`, or `accept` fails for lack of descriptors, it first closes the
/// connection that has been idle longest (a keep-alive connection between requests), as nginx reuses idle
/// keep-alive connections, and the waiting client takes its place. With none idle, the client is accepted only to
/// be turned away: it is sent the listener's refusal (an HTTP 503 with `Retry-After`) and closed, never left
/// hanging in the backlog. Out of descriptors, that accept uses the spare descriptor the reactor keeps open for
/// the purpose (closed for the moment, then opened again).
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
        /// The process or the system is out of descriptors; the connection stays queued.
        case outOfDescriptors
        /// Out of memory, or an unexpected failure; the connection stays queued.
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
                case .outOfDescriptors:
                    self.counters.acceptFailures.add(1, ordering: .relaxed)
                    if self.makeRoomForDescriptor(listener) { continue }
                    self.pauseAccepting()
                    return
                case .exhausted:
                    self.counters.acceptFailures.add(1, ordering: .relaxed)
                    self.pauseAccepting()
                    return
                }
            }
            guard let accepted else { return }
            self.counters.acceptedConnections.add(1, ordering: .relaxed)
            if self.connections.count >= self.settings.maximumConnections, !self.closeLongestIdle() {
                self.turnAway(accepted.descriptor, refusal: listener.refusal)
                continue
            }
            self.open(accepted, handler: listener.makeHandler())
        }
    }

    /// Out of descriptors: frees one by closing the longest-idle connection (the pending client then takes it on
    /// the next `accept`), or else accepts the client on the spare descriptor to turn it away. False when neither
    /// was possible and accepting must pause.
    private func makeRoomForDescriptor(_ listener: Listener) -> Bool {
        if self.closeLongestIdle() { return true }
        guard let spare = self.spareDescriptor else { return false }
        Syscall.close(spare)
        self.spareDescriptor = nil
        defer { self.spareDescriptor = Self.openSpareDescriptor() }
        let accepted: AcceptedSocket?
        do {
            accepted = try listener.accept(listener.descriptor)
        } catch {
            self.counters.acceptFailures.add(1, ordering: .relaxed)
            return false
        }
        guard let accepted else { return false }
        self.counters.acceptedConnections.add(1, ordering: .relaxed)
        self.turnAway(accepted.descriptor, refusal: listener.refusal)
        return true
    }

    /// Closes the connection that has been idle longest, if any is idle. O(connections), paid only when full.
    private func closeLongestIdle() -> Bool {
        var oldest: (connection: Connection, since: UInt64)?
        for connection in self.connections.values where connection.state == .active {
            guard let since = connection.handler?.idleSince else { continue }
            if since < oldest?.since ?? .max { oldest = (connection, since) }
        }
        guard let oldest else { return false }
        self.counters.idleClosedForRoom.add(1, ordering: .relaxed)
        self.close(oldest.connection)
        return true
    }

    /// Sends `refusal` to a connection there is no room for and closes it. What the client already sent is read
    /// and dropped first, so that the close does not reset the connection before the client reads the refusal.
    private func turnAway(_ descriptor: Int32, refusal: [UInt8]) {
        self.counters.refusedConnections.add(1, ordering: .relaxed)
        _ = Glibc.recv(descriptor, self.readBuffer.baseAddress, self.readBuffer.count, Int32(MSG_DONTWAIT))
        if !refusal.isEmpty {
            _ = refusal.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            Socket.shutdownWrite(descriptor)
        }
        Syscall.close(descriptor)
    }

    /// A descriptor held only to be given up when the process runs out: `/dev/null`, read-only.
    static func openSpareDescriptor() -> Int32? {
        let descriptor = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
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
            writer: ConnectionWriter(
                id: id, limit: self.settings.outboundBufferLimit, inbox: self.inbox, rules: self.settings.clientMemory),
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
    /// Linux asks; running out of descriptors makes room if it can; other exhaustion, and anything unexpected,
    /// pauses the listener so the loop cannot spin.
    private static func classify(_ error: IOError) -> AcceptFailure {
        switch error.errorNumber {
        case ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP,
            ENETUNREACH:
            return .connectionLost
        case EMFILE, ENFILE:
            return .outOfDescriptors
        default:
            return .exhausted
        }
    }
}
