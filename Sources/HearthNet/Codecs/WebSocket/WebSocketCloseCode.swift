/// The close status codes of RFC 6455 §7.4 that Hearth sends or checks, and the rules for which may travel.
///
/// Codes are plain `UInt16` values on the wire and in events; this namespace names the ones we use and decides which
/// a peer may send.
public enum WebSocketCloseCode {
    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure: UInt16 = 1000
    /// 1001: the server is going down or the client navigated away.
    public static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the framing rules.
    public static let protocolError: UInt16 = 1002
    /// 1003: a data type the endpoint cannot accept.
    public static let unsupportedData: UInt16 = 1003
    /// 1005: no code was present; reported locally, never sent.
    public static let noStatusReceived: UInt16 = 1005
    /// 1006: the connection dropped without a close frame; reported locally, never sent.
    public static let abnormalClosure: UInt16 = 1006
    /// 1007: a text message was not valid UTF-8.
    public static let invalidPayload: UInt16 = 1007
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation: UInt16 = 1008
    /// 1009: a message was larger than the endpoint accepts.
    public static let messageTooBig: UInt16 = 1009
    /// 1011: the server hit an unexpected condition.
    public static let internalError: UInt16 = 1011
    /// 1015: the TLS handshake failed; reported locally, never sent.
    public static let tlsHandshakeFailure: UInt16 = 1015

    /// Whether `code` may appear in a close frame on the wire, in either direction: the registered codes 1000–1003
    /// and 1007–1014, plus the library and application ranges 3000–4999. Everything else (below 1000, 1004, the
    /// local-only 1005/1006/1015, the unassigned 1016–2999 and 5000 and above) is a protocol error when received.
    public static func isValidOnWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
