import HearthNet
import HearthSystem

/// What each target is sent and what it answers: the bytes a listener opens with, the mark of a listener that is
/// subscribed, the mark each event carries before its write's number, and each write.
extension FanoutOptions.Target {
    /// The location every listener listens to, or the channel every subscriber subscribes to.
    static let room = "room"

    /// Whether the connection starts with a WebSocket upgrade (the listen goes out once it is answered).
    var upgrades: Bool { self == .hearth }

    /// The WebSocket upgrade request's target on a Hearth node.
    static func webSocketTarget(namespace: String) -> String { "/.ws?v=5&ns=\(namespace)" }

    /// What a listener sends once connected (for Hearth, once upgraded): a listen, or a subscription.
    func subscribe(using random: inout BufferedSystemRandom) -> [UInt8] {
        switch self {
        case .hearth:
            Self.clientFrame(#"{"t":"d","d":{"r":1,"a":"q","b":{"p":"/\#(Self.room)","h":""}}}"#, using: &random)
        case .redis:
            Array("*2\r\n$9\r\nSUBSCRIBE\r\n$\(Self.room.utf8.count)\r\n\(Self.room)\r\n".utf8)
        }
    }

    /// Appears in the answer that says a listener is subscribed.
    var readyMarker: [UInt8] {
        switch self {
        case .hearth: Array(#""b":{"s":"ok""#.utf8)
        case .redis: Array("subscribe\r\n".utf8)
        }
    }

    /// Precedes the write's number, in `FanoutOptions.writeDigits` digits, in every event.
    var eventMarker: [UInt8] {
        switch self {
        case .hearth: Array(#""p":"\#(Self.room)/m"#.utf8)
        case .redis: Array("\(Self.room)\r\n$\(FanoutOptions.writeDigits + 1)\r\nm".utf8)
        }
    }

    /// Write number `index`: a put of a short string under the room, or a publish to the channel.
    func write(_ index: Int, using random: inout BufferedSystemRandom) -> [UInt8] {
        let name = "m" + Self.padded(index)
        switch self {
        case .hearth:
            let message = #"{"t":"d","d":{"r":\#(index + 2),"a":"p","b":{"p":"/\#(Self.room)/\#(name)","d":"x"}}}"#
            return Self.clientFrame(message, using: &random)
        case .redis:
            return Array(
                "*3\r\n$7\r\nPUBLISH\r\n$\(Self.room.utf8.count)\r\n\(Self.room)\r\n$\(name.utf8.count)\r\n\(name)\r\n"
                    .utf8)
        }
    }

    /// `index` in exactly `FanoutOptions.writeDigits` digits.
    static func padded(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, FanoutOptions.writeDigits - digits.count)) + digits
    }

    /// A masked text frame, as a client must send it.
    private static func clientFrame(_ text: String, using random: inout BufferedSystemRandom) -> [UInt8] {
        WebSocketFrameEncoder.encodeFrame(
            .text, payload: Array(text.utf8), maskingKey: WebSocketMaskingKey(using: &random))
    }
}
