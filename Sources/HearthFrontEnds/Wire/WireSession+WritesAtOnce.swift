import HearthCore
import HearthDatabase
import HearthNode
import HearthRules
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
    /// Orders `message` here when it is such a write, as `identity`. Called only from the WebSocket's frame callback,
    /// one frame at a time, so two messages never race, and only once the caller found the session's task idle
    /// (running, nothing queued, not terminated) under the session's lock.
    /// - Returns: whether the message was taken (else the caller queues it for the session's task).
    func orderWriteAtOnce(_ message: String, as identity: AuthIdentity) -> Bool {
        var text = message
        return text.withUTF8 { self.orderWriteAtOnce(utf8: $0, as: identity) }
    }

    /// `orderWriteAtOnce(_:as:)` of a message's UTF-8 bytes, read where they lie (a frame that arrived whole is
    /// never made a `String` when it is a write taken here). The bytes must be valid UTF-8. A write is taken only
    /// while the session has room for it (`WireAcknowledgements.appendIfRoom`); one decoded when there is none is
    /// left to the task, as any other message.
    func orderWriteAtOnce(utf8 message: UnsafeBufferPointer<UInt8>, as identity: AuthIdentity) -> Bool {
        let access = self.context.access
        guard let writes = access.writes else { return false }
        let write: WireWrite
        let rules: InstalledRules
        // Bound and moved into the pair, not mapped: `Optional.map`'s closure borrows the decoded write, so the pair
        // took a copy of it (its path, mutations and origin retained) and the decoded one was destroyed.
        let decoded = self.writeScratch.withLock { scratch -> (Result<WireWrite, WriteRefusal>, InstalledRules)? in
            guard let write = Self.decodeWrite(message, reusing: &scratch.decode) else { return nil }
            return (write, access.rules(self.namespace, cachedIn: &scratch.rules))
        }
        // Consumed, so the write is moved into `write`, not copied (and the decoded one destroyed after).
        switch consume decoded {
        case nil:
            return false
        case (.success(let decoded), let inForce)?:
            (write, rules) = (decoded, inForce)
        case (.failure(let refusal), _)?:
            let entry = WireAcknowledgements.Entry(id: refusal.id, action: refusal.action, started: .now, path: .root)
            guard let number = self.acknowledgements.appendIfRoom(entry) else { return false }
            self.acknowledge(number, .failure(refusal.error))
            return true
        }
        let entry = WireAcknowledgements.Entry(id: write.id, action: write.action, started: .now, path: write.path)
        guard let number = self.acknowledgements.appendIfRoom(entry) else { return false }
        do {
            guard
                let loopWrite = try access.loopWrite(
                    identity, namespace: self.namespace, mutations: write.mutations, condition: nil,
                    origin: write.origin, rules: rules)
            else {
                self.acknowledge(number, .success(.committed([])))
                return true
            }
            // The one-write form: the answering thread hands the answer on without an array of one; the number
            // travels with it, so the closure holds the session alone (no allocation for it). An acknowledgement
            // carries no data, so the answer holds no mutations.
            writes.submitAcknowledged(connection: self.caller, consume loopWrite, tag: number) {
                self.acknowledge($0, $1)
            }
        } catch {
            self.acknowledge(number, .failure(error))
        }
        return true
    }

    /// What the reactor keeps for this session's writes from one to the next: the decoder's scratch space, and the
    /// rules of the session's namespace as last taken (`AccessControl.rules(_:cachedIn:)`), read again only once
    /// some rules changed.
    struct WriteScratch {
        var decode = WireWrite.Scratch()
        var rules: CachedRules?
    }

    /// A write the write rules refused, to be answered under its request id.
    struct WriteRefusal: Error {
        var id: Int64
        var action: String
        var error: WireProtocolError
    }

    /// The message whose UTF-8 bytes are `message` as a put without a hash or a merge: straight from its bytes
    /// (`WireWrite`), or when that declines, the general way (`WireClientMessage`, then `WireRequest.mutations()`),
    /// which also words what the rules refuse. Nil for any other message, which the session's task takes (one the
    /// direct decoder tells is not a write is not decoded the general way here: the task does that). The direct
    /// decoder reuses `scratch` (the session's).
    static func decodeWrite(_ message: UnsafeBufferPointer<UInt8>, reusing scratch: inout WireWrite.Scratch) -> Result<
        WireWrite, WriteRefusal
    >? {
        switch WireWrite.decoding(utf8: message, reusing: &scratch) {
        case .write(let write): return .success(write)
        case .notAWrite: return nil
        case .declined: break
        }
        let text = String(decoding: message, as: UTF8.self)
        guard case .request(let id, let request)? = try? WireClientMessage(decoding: text) else { return nil }
        switch request {
        case .put(_, _, nil, _), .merge: break
        default: return nil
        }
        do {
            let (path, mutations) = try request.mutations()
            let origin = Self.conditionAndOrigin(of: request, mutations: mutations).1
            return .success(
                WireWrite(id: id, action: request.action, path: path, mutations: mutations, origin: origin))
        } catch {
            return .failure(WriteRefusal(id: id, action: request.action, error: error))
        }
    }
}
