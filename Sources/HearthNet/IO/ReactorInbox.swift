import CHearthSystem
import Glibc
import Synchronization

/// The only door into the reactor thread from other threads: a locked command queue plus an eventfd that wakes
/// `epoll_wait`.
///
/// Senders append under a small lock and write the eventfd only when no wake-up is already pending, so a burst of
/// writes costs one syscall. After the reactor has stopped, commands are refused and their resources released
/// (stream sessions are told the connection closed, shutdown waiters are resumed).
final class ReactorInbox: Sendable {
    /// Work for the reactor thread.
    enum Command: Sendable {
        /// The application's answer to the request the connection is waiting on.
        case reply(connectionID: UInt64, HTTPReply)
        /// A writer queued bytes or asked to close.
        case flush(connectionID: UInt64)
        /// Graceful shutdown, step 1: stop accepting and close idle connections.
        case stopAccepting
        /// Graceful shutdown, step 2: every handler has finished; close the rest once flushed or at the deadline.
        case finish(deadline: UInt64, CheckedContinuation<Void, Never>)
    }

    private struct State {
        var commands: [Command] = []
        var isWakePending = false
        var isClosed = false
    }

    private let state = Mutex(State())
    /// The eventfd registered with epoll; owned by the inbox and closed by `close()`.
    let eventDescriptor: Int32

    init() throws(IOError) {
        let flags = Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)
        self.eventDescriptor = Int32(try Syscall.call("eventfd") { Int(eventfd(0, flags)) })
    }

    /// Queues `command` and wakes the reactor; refused commands are released at once.
    func send(_ command: Command) {
        let descriptor = self.eventDescriptor
        let refused: Command? = self.state.withLock { state in
            guard !state.isClosed else { return command }
            state.commands.append(command)
            if !state.isWakePending {
                state.isWakePending = true
                var one: UInt64 = 1
                // Written under the lock so `close()` can never race a write onto a reused descriptor.
                _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size)
            }
            return nil
        }
        if let refused { Self.release(refused) }
    }

    /// Called by the reactor when the eventfd is readable: resets it and takes every queued command, in order.
    func takeCommands() -> [Command] {
        var counter: UInt64 = 0
        _ = Glibc.read(self.eventDescriptor, &counter, MemoryLayout<UInt64>.size)
        return self.state.withLock { state in
            state.isWakePending = false
            let commands = state.commands
            state.commands = []
            return commands
        }
    }

    /// Refuses all further commands, releases the ones still queued, and closes the eventfd.
    func close() {
        let leftovers: [Command] = self.state.withLock { state in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            Syscall.close(self.eventDescriptor)
            let commands = state.commands
            state.commands = []
            return commands
        }
        for command in leftovers { Self.release(command) }
    }

    /// Keeps the promises attached to a command that will never be carried out.
    static func release(_ command: Command) {
        switch command {
        case .reply(_, .stream(_, let session)): session.connectionClosed()
        case .reply(_, .upgrade(_, let handler)): handler.connectionClosed()
        case .finish(_, let continuation): continuation.resume()
        case .reply(_, .response), .flush, .stopAccepting: break
        }
    }
}
