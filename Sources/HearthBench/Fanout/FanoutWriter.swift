import HearthNet
import HearthSystem

/// The run's one writer, on a blocking connection of its own: it opens (upgrading to WebSocket for a realtime writer
/// to Hearth), sends the writes it is given, and at the end reads every write's answer, so a write the server
/// refused is reported rather than counted as events that never came.
struct FanoutWriter {
    private let target: FanoutOptions.Target
    private let writer: FanoutOptions.Writer
    private let connection: BlockingConnection
    /// Bytes read so far that the answers' count has not looked at.
    private var unread: [UInt8]

    /// Connects to the run's server and, for a realtime writer to Hearth, upgrades the connection, all before
    /// `deadline`.
    init(_ options: FanoutOptions, before deadline: ContinuousClock.Instant) throws(FanoutRunError) {
        let (target, server, namespace) = (options.target, options.server, options.namespace)
        self.target = target
        self.writer = options.writer
        do {
            let address = try SocketAddress(host: server.host, port: server.port)
            self.connection = try BlockingConnection(to: address, before: deadline)
        } catch {
            throw FanoutRunError("The writer could not connect to \(server): \(error)")
        }
        self.unread = []
        guard options.writerUpgrades else { return }
        var random = BufferedSystemRandom()
        let key = WebSocketClientHandshake.makeKey(using: &random)
        let request = WebSocketClientHandshake.request(
            target: FanoutOptions.Target.webSocketTarget(namespace: namespace), host: server.description, key: key)
        do {
            try self.connection.send(request)
            var head: [UInt8] = []
            while WebSocketClientHandshake.headLength(in: head) == nil {
                let bytes = try self.connection.receive()
                guard !bytes.isEmpty else { throw FanoutRunError("\(server) closed the writer's connection") }
                head += bytes
            }
            let length = WebSocketClientHandshake.headLength(in: head) ?? head.count
            try WebSocketClientHandshake.check(head: Array(head[..<length]), key: key)
            self.unread = Array(head[length...])
        } catch let error as FanoutRunError {
            throw error
        } catch {
            throw FanoutRunError("The writer's WebSocket upgrade at \(server) failed: \(error)")
        }
    }

    func send(_ bytes: [UInt8]) throws(FanoutRunError) {
        do {
            try self.connection.send(bytes)
        } catch {
            throw FanoutRunError("The writer could not send: \(error)")
        }
    }

    /// Reads until `count` writes are answered; throws with the server's words when one was refused.
    mutating func confirm(_ count: Int) throws(FanoutRunError) {
        var answered = 0
        while true {
            let (oks, refusal) = Self.answers(in: self.unread, target: self.target, writer: self.writer)
            if let refusal { throw FanoutRunError("The server refused a write: \(refusal)") }
            answered = oks
            if answered >= count { return }
            do {
                let bytes = try self.connection.receive()
                guard !bytes.isEmpty else {
                    throw FanoutRunError("The server closed the writer's connection after \(answered) answers")
                }
                self.unread += bytes
            } catch let error as FanoutRunError {
                throw error
            } catch {
                throw FanoutRunError("The writer got \(answered) of \(count) answers: \(error)")
            }
        }
    }

    func close() { self.connection.close() }

    /// The writes answered in `bytes` and the first refusal among them: Hearth's `"s":"ok"` statuses (or, to a
    /// REST writer, its HTTP status lines, `200` for each write made), or Redis's integer replies to `PUBLISH`.
    static func answers(
        in bytes: [UInt8], target: FanoutOptions.Target, writer: FanoutOptions.Writer = .realtime
    ) -> (answered: Int, refusal: String?) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch target {
        case .hearth where writer == .rest:
            let statuses = text.split(separator: "HTTP/1.1 ", omittingEmptySubsequences: false).dropFirst()
            let refusal = statuses.first { !$0.hasPrefix("200 ") }.map { String($0.prefix(200)) }
            return (statuses.count, refusal)
        case .hearth:
            let statuses = text.split(separator: #""b":{"s":""#, omittingEmptySubsequences: false).dropFirst()
            let refusal = statuses.first { !$0.hasPrefix("ok\"") }.map { String($0.prefix(200)) }
            return (statuses.count, refusal)
        case .redis:
            let lines = text.split(separator: "\r\n")
            let refusal = lines.first { $0.hasPrefix("-") }.map { String($0.prefix(200)) }
            return (lines.filter { $0.hasPrefix(":") }.count, refusal)
        }
    }
}
