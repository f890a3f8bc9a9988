import HearthNet
import Testing

@Suite struct WebSocketHandshakeTests {
    private func upgradeRequest(
        method: String = "GET",
        version: String = "HTTP/1.1",
        removing removed: String? = nil,
        replacing replaced: (String, String)? = nil
    ) -> HTTPRequest {
        var headers = HTTPHeaders()
        let fields = [
            ("Host", "localhost"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ]
        for (name, value) in fields where name != removed {
            headers.add(name, replaced?.0 == name ? replaced?.1 ?? value : value)
        }
        return HTTPRequest(method: method, target: "/.ws?v=5", path: "/.ws", version: version, headers: headers)
    }

    private func failure(_ request: HTTPRequest) -> WebSocketHandshakeError? {
        do {
            _ = try WebSocketHandshake.acceptResponse(for: request)
            return nil
        } catch {
            return error
        }
    }

    /// RFC 6455 §1.3's example; the value agrees with `openssl sha1 -binary | base64` over key + GUID.
    @Test func computesTheAcceptKeyFromRFC6455() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func answersAValidUpgradeWith101() throws {
        let response = try WebSocketHandshake.acceptResponse(for: self.upgradeRequest())
        #expect(response.status == 101)
        #expect(response.headers["upgrade"] == "websocket")
        #expect(response.headers["connection"] == "Upgrade")
        #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.body.isEmpty)
    }

    @Test func matchesUpgradeAndConnectionTokensCaseInsensitively() throws {
        var request = self.upgradeRequest(replacing: ("Upgrade", "WebSocket"))
        request.headers.replaceOrAdd("Connection", "UPGRADE")
        #expect(try WebSocketHandshake.acceptResponse(for: request).status == 101)
    }

    @Test func rejectsWithA400AndAJSONErrorBody() throws {
        let cases: [(HTTPRequest, WebSocketHandshakeError.Code)] = [
            (self.upgradeRequest(method: "POST"), .invalidMethod),
            (self.upgradeRequest(version: "HTTP/1.0"), .invalidVersion),
            (self.upgradeRequest(removing: "Upgrade"), .missingUpgrade),
            (self.upgradeRequest(replacing: ("Upgrade", "h2c")), .missingUpgrade),
            (self.upgradeRequest(replacing: ("Connection", "keep-alive")), .missingUpgrade),
            (self.upgradeRequest(removing: "Sec-WebSocket-Version"), .missingVersion),
            (self.upgradeRequest(removing: "Sec-WebSocket-Key"), .invalidKey),
            (self.upgradeRequest(replacing: ("Sec-WebSocket-Key", "c2hvcnQ=")), .invalidKey),
            (self.upgradeRequest(replacing: ("Sec-WebSocket-Key", "not base64 at all!!")), .invalidKey),
        ]
        for (request, code) in cases {
            let error = try #require(self.failure(request), "\(code)")
            #expect(error.code == code)
            #expect(error.response.status == 400)
            #expect(error.response.headers["Content-Type"] == "application/json; charset=utf-8")
            let body = String(decoding: error.response.body, as: UTF8.self)
            #expect(body.hasPrefix("{\"error\":\"") && body.hasSuffix("\"}"), "\(body)")
        }
    }

    @Test func rejectsAnotherProtocolVersionWith426() throws {
        let error = try #require(self.failure(self.upgradeRequest(replacing: ("Sec-WebSocket-Version", "8"))))
        #expect(error.code == .unsupportedVersion)
        #expect(error.response.status == 426)
        #expect(error.response.headers["Sec-WebSocket-Version"] == "13")
    }

    @Test func upgradeReplyUpgradesOrAnswersWithTheError() {
        let handler = RecordingMessageHandler()
        guard
            case .upgrade(let response, _) = WebSocketConnection.upgradeReply(
                for: self.upgradeRequest(),
                handler: handler,
                maximumMessageBytes: 1024
            )
        else {
            Issue.record("expected an upgrade")
            return
        }
        #expect(response.status == 101)
        guard
            case .response(let error) = WebSocketConnection.upgradeReply(
                for: self.upgradeRequest(method: "PUT"),
                handler: handler,
                maximumMessageBytes: 1024
            )
        else {
            Issue.record("expected an error response")
            return
        }
        #expect(error.status == 400)
    }
}
