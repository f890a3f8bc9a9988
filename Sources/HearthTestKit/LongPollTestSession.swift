import Foundation
public import HearthCore

/// A long-polling client driven with plain HTTP requests like a browser's script tags (reference §1.12): the start
/// request, polls carrying web-safe base64 segments, and the disconnect frame.
public final class LongPollTestSession {
    public let port: Int
    /// The session's own keep-alive connection, for the start request and polls.
    public let http: HTTPTestClient
    public let id: String
    public let password: String
    /// The start request's script (callback shims, the `start` command, the handshake).
    public let startScript: String
    private var nextSegment = 0
    private var serial = 1

    /// Starts a session in `namespace`.
    public init(port: Int, namespace: String = "lp") throws {
        self.port = port
        self.http = try HTTPTestClient(port: port)
        self.startScript = try self.http.request("GET", "/.lp?start=t&ser=123&cb=7&v=5&ns=\(namespace)").text
        guard let command = self.startScript.range(of: "pLPCommand('start','") else {
            throw TestClientError(description: "no start command in \(self.startScript)")
        }
        let fields = self.startScript[command.upperBound...].split(separator: "'")
        guard fields.count >= 3 else {
            throw TestClientError(description: "no id and password in \(self.startScript)")
        }
        (self.id, self.password) = (String(fields[0]), String(fields[2]))
    }

    /// Sends `message` as the next segment in a poll and returns the script that answers the poll.
    public func send(_ message: String) throws -> String {
        defer {
            self.nextSegment += 1
            self.serial += 1
        }
        let segment = Self.webSafe(message)
        return try self.http.request(
            "GET",
            "/.lp?id=\(self.id)&pw=\(self.password)&ser=\(self.serial)&seg0=\(self.nextSegment)&ts0=1&d0=\(segment)"
        ).text
    }

    /// Opens the session's disconnect frame on a connection of its own and reads the reply's head.
    public func openDisconnectFrame(password: String? = nil) throws -> (
        client: HTTPTestClient, head: HTTPTestClient.Response
    ) {
        let client = try HTTPTestClient(port: self.port)
        try client.send(
            HTTPTestClient.requestBytes("GET", "/.lp?dframe=t&id=\(self.id)&pw=\(password ?? self.password)", body: nil)
        )
        var head = try client.readResponseHead()
        if let length = head.header("Content-Length").flatMap({ Int($0) }) {
            head.body = try client.readExactly(length)
        }
        return (client, head)
    }

    /// A message as a browser sends it: UTF-8, base64 with `-`, `_` and `.` for `+`, `/` and `=`.
    public static func webSafe(_ message: String) -> String {
        String(Base64.encode(Array(message.utf8)).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? "." : $0 })
    }

    /// The messages in the `pRTLPCB(response,[…]);` call of a poll's script.
    public static func messages(in script: String, response: Int) throws -> [JSONValue] {
        let prefix = "pRTLPCB(\(response),"
        guard let start = script.range(of: prefix),
            let end = script.range(of: ");", range: start.upperBound..<script.endIndex)
        else {
            throw TestClientError(description: "no response \(response) in \(script)")
        }
        guard case .array(let items) = try JSONReader.parseValue(String(script[start.upperBound..<end.lowerBound]))
        else { return [] }
        return items
    }
}
