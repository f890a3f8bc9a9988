import Glibc
import HearthSystem

/// Writes made inside `FlushBatch.collecting` queue their bytes as usual but ask their reactor to send only when the
/// batch ends, in one command per reactor: one send per connection for everything the batch queued for it. The read
/// view publishes each batch of commits inside one, so a connection listening to a busy location gets the batch's
/// events in one `send` instead of waking the reactor for each (as Redis writes a client's output buffer once per
/// event-loop turn); the write loop answers each turn's writes inside one, so a turn's acknowledgements and replies
/// wake each reactor once rather than once per write.
package enum FlushBatch {
    /// The batch collecting on the calling thread, if any. A thread's, not a task-local value: `collecting`'s body is
    /// synchronous, so it runs on one thread from start to end, and every ordinary write (each acknowledgement and
    /// reply) asks whether a batch collects, which as a task-local value was a search of the task's values and a copy
    /// through the runtime's generic witnesses; this is one `pthread_getspecific`.
    static var current: Collector? {
        guard let collector = pthread_getspecific(Self.key) else { return nil }
        return Unmanaged<Collector>.fromOpaque(collector).takeUnretainedValue()
    }

    /// Where each thread keeps its collecting batch, unretained: `collecting` holds it, and clears it before it ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else {
            preconditionFailure("no thread-specific key could be made for the flush batches")
        }
        return key
    }()

    /// Runs `body`; the flushes its writes ask for, and the commands it hands over with `send(_:to:)`, go to their
    /// reactors when it returns. Inside another batch, it joins that one.
    package static func collecting<T>(_ body: () throws -> T) rethrows -> T {
        guard pthread_getspecific(Self.key) == nil else { return try body() }
        let collector = Collector()
        pthread_setspecific(Self.key, Unmanaged.passUnretained(collector).toOpaque())
        defer {
            pthread_setspecific(Self.key, nil)
            collector.flush()
        }
        return try body()
    }

    /// Hands `command` to `inbox`: at the end of the batch when one is collecting (with every other command and
    /// flush the batch gathered for that reactor, in one wake-up), else at once.
    static func send(_ command: ReactorInbox.Command, to inbox: ReactorInbox) {
        if let batch = Self.current {
            batch.add(command, for: inbox)
        } else {
            inbox.send(command)
        }
    }

    /// The connections whose writer asked for a flush during the batch, each once (a writer asks again only after
    /// its reactor has begun flushing), and the other commands handed over in it, in the order they came.
    final class Collector: Sendable {
        private struct Pending {
            /// Per reactor, in the order each first asked: the connections whose writers asked for a flush. Kept by
            /// reactor as they ask (a node has a reactor or a few), they are the flush command's list as it goes:
            /// eight bytes a connection, where a list of every connection with its reactor took sixteen and passed a
            /// kilobyte at 64 connections (an allocation that first consolidates the allocator's fast bins), and was
            /// copied into a list per reactor at the end.
            var flushes: [(inbox: ReactorInbox, connectionIDs: [UInt64])] = []
            var commands: [(inbox: ReactorInbox, command: ReactorInbox.Command)] = []
        }

        private let pending = Lock(Pending())

        func add(_ inbox: ReactorInbox, connectionID: UInt64) {
            self.pending.withLock { pending in
                if let index = pending.flushes.firstIndex(where: { $0.inbox === inbox }) {
                    pending.flushes[index].connectionIDs.append(connectionID)
                } else {
                    pending.flushes.append((inbox, [connectionID]))
                }
            }
        }

        func add(_ command: ReactorInbox.Command, for inbox: ReactorInbox) {
            self.pending.withLock { $0.commands.append((inbox, command)) }
        }

        /// Sends each reactor what the batch gathered for it in one hand-off, so it sees the whole batch in one
        /// turn: its commands in the order they came, then one flush naming each of its connections.
        ///
        /// The commands (a REST reply each) and the connections' lists are moved from list to list, never copied:
        /// iterated, each was copied out, and each reactor's list copied whole again when its flush was appended to
        /// it (a retain of every part of every reply, and its release). A reactor with nothing but connections to
        /// flush gets its one flush command with no list made for it.
        func flush() {
            var pending = self.pending.withLock { pending in
                defer { pending = Pending() }
                return pending
            }
            var inboxes: [(inbox: ReactorInbox, commands: [ReactorInbox.Command])] = []
            // Reversed in place, then taken from the end: the order they came.
            pending.commands.reverseByMoving()
            while let (inbox, command) = pending.commands.popLast() {
                if let index = inboxes.firstIndex(where: { $0.inbox === inbox }) {
                    inboxes[index].commands.append(command)
                } else {
                    inboxes.append((inbox, [command]))
                }
            }
            pending.flushes.reverseByMoving()
            while let (inbox, connectionIDs) = pending.flushes.popLast() {
                let flush: ReactorInbox.Command =
                    connectionIDs.count == 1
                    ? .flush(connectionID: connectionIDs[0]) : .flushMany(connectionIDs: connectionIDs)
                if let index = inboxes.firstIndex(where: { $0.inbox === inbox }) {
                    inboxes[index].commands.append(flush)
                } else {
                    inbox.send(contentsOf: CollectionOfOne(flush))
                }
            }
            inboxes.reverseByMoving()
            while let (inbox, commands) = inboxes.popLast() { inbox.send(contentsOf: commands) }
        }
    }
}
