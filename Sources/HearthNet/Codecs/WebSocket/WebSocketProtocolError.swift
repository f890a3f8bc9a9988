/// A WebSocket peer broke RFC 6455; carries the close code to answer with and a message saying what was wrong.
///
/// Once the parser reports one of these the connection is finished: the shell sends a close frame with `closeCode`
/// (and a short reason) and drops the socket.
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule was broken.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// An RSV bit was set, but no extension was negotiated.
        public static let reservedBitsSet = Code("reservedBitsSet")
        /// The opcode is one RFC 6455 reserves.
        public static let unknownOpcode = Code("unknownOpcode")
        /// A client frame arrived without a masking key.
        public static let unmaskedFrame = Code("unmaskedFrame")
        /// A server frame arrived with a masking key (client-side parsing only).
        public static let maskedFrame = Code("maskedFrame")
        /// A payload length used more bytes than needed, or set the 64-bit length's top bit.
        public static let invalidLength = Code("invalidLength")
        /// A control frame was fragmented or longer than 125 bytes.
        public static let invalidControlFrame = Code("invalidControlFrame")
        /// A continuation frame came without a message to continue, or a new message started inside one.
        public static let unexpectedFragment = Code("unexpectedFragment")
        /// A text message or close reason was not valid UTF-8.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// A message was longer than the configured maximum.
        public static let messageTooBig = Code("messageTooBig")
        /// A close frame had a one-byte body or a code that may not be sent.
        public static let invalidCloseFrame = Code("invalidCloseFrame")
    }

    public let code: Code
    /// The close code to send back: 1002, 1007 or 1009.
    public let closeCode: UInt16
    public let message: String

    public init(_ code: Code, closeCode: UInt16, _ message: String) {
        self.code = code
        self.closeCode = closeCode
        self.message = message
    }

    public var description: String { self.message }
}
