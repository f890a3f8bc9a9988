extension WebSocketTestClient {
    /// A frame's opcode as sent on the wire; any 4-bit value, so tests can send and see reserved ones.
    public struct Opcode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        public let rawValue: UInt8

        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        public init(integerLiteral value: UInt8) {
            self.rawValue = value
        }

        public static let continuation: Opcode = 0x0
        public static let text: Opcode = 0x1
        public static let binary: Opcode = 0x2
        public static let close: Opcode = 0x8
        public static let ping: Opcode = 0x9
        public static let pong: Opcode = 0xA

        public var description: String { "0x" + String(self.rawValue, radix: 16) }
    }

    /// One frame as received.
    public struct Frame: Sendable, Equatable {
        public var opcode: Opcode
        public var isFinal: Bool
        public var payload: [UInt8]

        public init(opcode: Opcode, isFinal: Bool = true, payload: [UInt8]) {
            self.opcode = opcode
            self.isFinal = isFinal
            self.payload = payload
        }

        public var text: String { String(decoding: self.payload, as: UTF8.self) }

        /// A close frame's status code, when its payload carries one.
        public var closeCode: UInt16? {
            self.payload.count >= 2 ? UInt16(self.payload[0]) << 8 | UInt16(self.payload[1]) : nil
        }

        /// A close frame's reason text (empty when there is none).
        public var closeReason: String {
            self.payload.count > 2 ? String(decoding: self.payload[2...], as: UTF8.self) : ""
        }
    }
}
