import HearthCore
import HearthTestKit

/// A realtime-protocol client over `WebSocketTestClient` for loopback tests: reads whole messages (joining
/// count-prefixed frames), sends requests with increasing ids, and collects the pushes that precede a response.
/// Blocking: use only inside `onDedicatedThread`.
final class WireTestClient {
    let socket: WebSocketTestClient
    private var nextID: Int64 = 1
    /// The handshake's `d` object.
    private(set) var handshake: JSONValue = .null
    /// Pushes read while waiting for responses, oldest first.
    var pushes: [JSONValue] = []

    init(
        port: Int, target: String = "/.ws?v=5&ns=wiretest", host: String = "127.0.0.1:\(0)",
        receiveBufferBytes: Int? = nil
    ) throws {
        self.socket = try WebSocketTestClient(
            port: port, target: target, host: host, receiveBufferBytes: receiveBufferBytes)
        let first = try self.readMessage()
        self.handshake = first["d"]?["d"] ?? .null
    }

    var sessionID: String { self.handshake["s"]?.stringValue ?? "" }

    /// Reads one message, joining a count frame and its parts.
    func readMessage() throws -> JSONValue {
        let first = try self.socket.readText()
        var text = first
        if first.utf8.count <= 6, let count = Int(first) {
            text = ""
            for _ in 0..<count { text += try self.socket.readText() }
        }
        return try JSONReader.parseValue(text)
    }

    /// Sends a data request and returns its id.
    @discardableResult
    func send(_ action: String, _ body: String) throws -> Int64 {
        let id = self.nextID
        self.nextID += 1
        try self.socket.sendText(#"{"t":"d","d":{"r":\#(id),"a":"\#(action)","b":\#(body)}}"#)
        return id
    }

    /// Reads until the response to `id`, keeping pushes in `pushes`; returns the response body `b`.
    func response(to id: Int64) throws -> JSONValue {
        while true {
            let message = try self.readMessage()
            guard let data = message["d"] else { continue }
            if data["r"]?.intValue == id { return data["b"] ?? .null }
            if data["a"] != nil { self.pushes.append(data) }
        }
    }

    /// Sends a request and waits for its response body.
    func call(_ action: String, _ body: String) throws -> JSONValue {
        try self.response(to: try self.send(action, body))
    }

    /// The next push (from `pushes` or the socket).
    func nextPush() throws -> JSONValue {
        if !self.pushes.isEmpty { return self.pushes.removeFirst() }
        while true {
            let message = try self.readMessage()
            if let data = message["d"], data["a"] != nil { return data }
        }
    }
}

/// Parses JSON text for comparisons in tests.
func json(_ text: String) throws -> JSONValue { try JSONReader.parseValue(text) }
