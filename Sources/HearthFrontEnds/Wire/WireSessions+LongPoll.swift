import HearthCore
import HearthNet
import HearthWire

/// Routing `/.lp` (reference §1.12) — start, polls, and the held disconnect frame (`dframe=t`) — and WebSocket
/// upgrades of long-polling sessions (`/.ws?…&s=<id>`).
extension WireSessions {
    func longPoll(_ request: HTTPRequest) async -> HTTPReply {
        // One table of the query (the first of repeated names wins, as a scan would find it), so reading a poll's
        // many `seg`/`ts`/`d` parameters costs one pass over the query, not one per parameter.
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let parameter = { (name: String) in query[name] }
        if parameter("start") == "t" {
            let callback = parameter("cb") ?? ""
            guard callback.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return Self.script(status: 400, Array("// cb must be alphanumeric\n".utf8))
            }
            guard self.longPollMemory.take(WireLongPollMemory.sessionBytes) else {
                self.longPollMemory.countRefusal()
                return Self.script(status: 503, Array("// too many long-polling sessions; retry later\n".utf8))
            }
            let session: WireSession
            do {
                session = try self.makeSession(request)
            } catch {
                self.longPollMemory.release(WireLongPollMemory.sessionBytes)
                return .response(error.response)
            }
            let transport = WireLongPollTransport(
                password: WireSession.makeID(), maximumMessageBytes: self.context.maximumMessageBytes,
                maximumQueuedBytes: self.context.maximumQueuedBytes, memory: self.longPollMemory)
            self.start(session)
            session.attach(transport)
            return Self.script(status: 200, transport.startScript(callback: callback, id: session.id))
        }
        let session = parameter("id").flatMap { self.session(id: $0) }
        let transport = session?.longPoll
        let isAuthentic = transport != nil && transport?.password == parameter("pw")
        if parameter("dframe") == "t" {
            if let session, isAuthentic {
                let frame = WireDisconnectFrame(session: session)
                if session.holdDisconnectFrame(frame) { return .stream(WireDisconnectFrame.head, frame) }
            }
            var page = WireDisconnectFrame.head
            page.body = WireDisconnectFrame.emptyPage
            return .response(page)
        }
        guard let session, let transport, isAuthentic else {
            return Self.script(status: 200, Array("pLPCommand('close');\n".utf8))
        }
        // Segment numbers and totals go to the assembler as parsed: it compares them, never adds to them, and
        // refuses what is out of bounds. The session then ends with the reason in a shutdown message (`s`), which the
        // client logs, as a WebSocket's close frame would carry it.
        var index = 0
        while let segment = parameter("seg\(index)").flatMap(Int.init),
            let total = parameter("ts\(index)").flatMap(Int.init), let data = parameter("d\(index)")
        {
            do {
                let received = WireLongPollAssembler.Segment(number: segment, total: total, data: data)
                for message in try transport.receive(received) {
                    session.enqueue(message: message)
                }
            } catch {
                self.longPollMemory.countRefusal()
                session.send(.shutdown(reason: error.message))
                session.terminate(reason: error.message)
                break
            }
            index += 1
        }
        return Self.script(status: 200, await transport.poll())
    }

    /// A WebSocket upgrade for the long-polling session named by `s=`, or `nil` when there is none.
    func upgradeLongPoll(_ request: HTTPRequest) -> HTTPReply? {
        guard let id = request.query.first(where: { $0.name == "s" })?.value, let session = self.session(id: id),
            session.longPoll != nil
        else { return nil }
        return WebSocketConnection.upgradeReply(
            for: request, handler: WireUpgradeHandler(session: session),
            maximumMessageBytes: self.context.maximumMessageBytes)
    }

    private static func script(status: Int, _ body: [UInt8]) -> HTTPReply {
        .response(
            HTTPResponse(
                status: status,
                headers: HTTPHeaders([
                    ("Content-Type", "application/javascript; charset=utf-8"), ("Cache-Control", "no-cache"),
                ]),
                body: body))
    }
}
