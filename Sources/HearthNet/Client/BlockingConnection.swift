import Glibc

/// One blocking TCP connection to a numeric address, with one deadline for the whole exchange: what the command
/// line's `BlockingHTTPClient` and a joining node's first request to a cluster member send and read on.
///
/// It blocks the calling thread (there is no reactor under it) and closes when asked (`close()`); every call throws
/// `HTTPClientError` once the deadline has passed.
package struct BlockingConnection: Sendable {
    package let address: SocketAddress
    private let descriptor: Int32
    private let deadline: ContinuousClock.Instant

    /// Connects to `address` before `deadline`.
    ///
    /// - Throws: `HTTPClientError`: `.refused` when nothing listens, `.timedOut` when the deadline passes,
    ///   `.unreachable` for other connection failures.
    package init(to address: SocketAddress, before deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        let descriptor: Int32
        do {
            descriptor = try Socket.startConnect(to: address)
        } catch {
            throw Self.connectionError(address, error)
        }
        do throws(HTTPClientError) {
            try Self.wait(descriptor, for: Int16(POLLOUT), address, "connecting", before: deadline)
            let pending = Socket.pendingError(descriptor)
            guard pending == 0 else {
                throw Self.connectionError(address, Socket.connectError(to: "\(address)", pending))
            }
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        self.address = address
        self.descriptor = descriptor
        self.deadline = deadline
    }

    /// Sends all of `bytes`.
    package func send(_ bytes: [UInt8]) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { pointer in
                Result { () throws(IOError) in try Socket.send(self.descriptor, pointer) }
            }
            switch result {
            case .failure(let error): throw Self.connectionError(self.address, error)
            case .success(.done(let count)): offset += count
            case .success(.wouldBlock):
                try Self.wait(self.descriptor, for: Int16(POLLOUT), self.address, "sending", before: self.deadline)
            }
        }
    }

    /// The next bytes the peer sends (at most `maximum`), waiting for them; empty once the peer has closed.
    package func receive(maximum: Int = 16 * 1024) throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let result = buffer.withUnsafeMutableBytes { pointer in
                Result { () throws(IOError) in try Socket.receive(self.descriptor, into: pointer) }
            }
            switch result {
            case .failure(let error):
                throw Self.connectionError(self.address, error)
            case .success(.done(let count)):
                return Array(buffer[..<count])
            case .success(.wouldBlock):
                try Self.wait(
                    self.descriptor, for: Int16(POLLIN), self.address, "waiting for the answer", before: self.deadline)
            }
        }
    }

    package func close() {
        Syscall.close(self.descriptor)
    }

    /// Blocks until `descriptor` is ready for `events` (or has an error to report), or throws once `deadline` passes.
    private static func wait(
        _ descriptor: Int32, for events: Int16, _ address: SocketAddress, _ doing: String,
        before deadline: ContinuousClock.Instant
    ) throws(HTTPClientError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw HTTPClientError(
                    .timedOut,
                    "\(address) did not answer in time (timed out \(doing)); is the process stopped or "
                        + "overloaded?")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poll = pollfd(fd: descriptor, events: events, revents: 0)
            let result = Glibc.poll(&poll, 1, milliseconds)
            if result > 0 { return }
            if result < 0 && errno != EINTR {
                throw HTTPClientError(.unreachable, "Waiting on \(address) failed: poll returned errno \(errno).")
            }
        }
    }

    private static func connectionError(_ address: SocketAddress, _ error: IOError) -> HTTPClientError {
        switch error.code {
        case .connectionRefused:
            HTTPClientError(.refused, "Nothing listens on \(address) (connection refused); is the server running?")
        case .timedOut:
            HTTPClientError(.timedOut, error.message)
        default:
            HTTPClientError(.unreachable, error.message)
        }
    }
}
