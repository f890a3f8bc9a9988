import HearthCore
import HearthDatabase
import HearthSystem
import HearthWire

/// On a single node, a put or merge that arrives while the session's task has nothing to do is ordered where its
/// frame was received (the reactor thread): decoded, checked against the write rules and the security rules, and
/// handed to the write loop, its answer queued in order with the session's others (`WireAcknowledgements`). The
/// session's task is not woken for it: the write costs the reactor's decode and check, one hand-off to the loop and
/// its share of the answer. Anything else — a compare-and-set (it waits for its turn at its location), any other
/// request, a message behind queued ones, a write past the session's unanswered ones
/// (`WireAcknowledgements.maximumUnanswered`), a cluster member's write — goes to the session's task as before, so
/// requests are still handled in arrival order.
extension WireSession {
    /// Orders `message` here when it is such a write. Called only from the WebSocket's frame callback, one frame at a
    /// time, so two messages never race.
    /// - Returns: whether the message was taken (else the caller queues it for the session's task).
    func orderWriteAtOnce(_ message: String) -> Bool {
        guard let writes = self.context.access.writes,
            self.shared.withLock({ $0.isRunning && $0.queuedBytes == 0 && !$0.isTerminated }),
            self.acknowledgements.hasRoom,
            case .request(let id, let request)? = try? WireClientMessage(decoding: message)
        else { return false }
        switch request {
        case .put(_, _, nil, _), .merge: break
        default: return false
        }
        var entry = WireAcknowledgements.Entry(id: id, action: request.action, started: .now, path: .root)
        let mutations: [Mutation]
        do {
            (entry.path, mutations) = try Self.mutations(of: request)
        } catch {
            self.acknowledge(self.acknowledgements.append(entry), .failure(error))
            return true
        }
        let number = self.acknowledgements.append(entry)
        let (condition, origin) = Self.conditionAndOrigin(of: request, mutations: mutations)
        do {
            guard
                let write = try self.context.access.loopWrite(
                    self.authIdentity, namespace: self.namespace, mutations: mutations, condition: condition,
                    origin: origin)
            else {
                self.acknowledge(number, .success(.committed([])))
                return true
            }
            writes.submit(connection: self.caller, [write]) { answers in
                self.acknowledge(number, answers.first ?? .failure(DatabaseClosedError()))
            }
        } catch {
            self.acknowledge(number, .failure(error))
        }
        return true
    }
}
