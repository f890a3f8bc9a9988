extension WriteValue {
    /// The JSON text of one of the usual values, whose length is known before it is written: a log record sets the
    /// room for it aside with the fields around it, in one piece (`BinaryWriter.append(count:to:_:)`).
    public enum ShortJSON {
        /// The client's own text (`WriteValue.sourceJSON`).
        case source([UInt8])
        /// `null`, `true`, `false`, `{".sv":"timestamp"}`.
        case literal(StaticString)
        /// An integer leaf without a priority (a realtime client's value keeps no source text).
        case integer(Int64)
        /// `{".sv":{"increment":n}}` for an integer `n`.
        case increment(Int64)

        private static let incrementPrefix: StaticString = #"{".sv":{"increment":"#
        private static let incrementSuffix: StaticString = "}}"

        /// The bytes of the text.
        public var count: Int {
            switch self {
            case .source(let bytes): bytes.count
            case .literal(let text): text.utf8CodeUnitCount
            case .integer(let number): JSONWriter.decimalCount(of: number)
            case .increment(let delta):
                Self.incrementPrefix.utf8CodeUnitCount + JSONWriter.decimalCount(of: delta)
                    + Self.incrementSuffix.utf8CodeUnitCount
            }
        }

        /// Writes the text, `count` bytes.
        public func write(to cursor: inout BinaryCursor) {
            switch self {
            case .source(let bytes):
                bytes.withUnsafeBytes { cursor.write($0) }
            case .literal(let text):
                Self.write(text, to: &cursor)
            case .integer(let number):
                JSONWriter.writeDecimal(number, count: JSONWriter.decimalCount(of: number), to: &cursor)
            case .increment(let delta):
                Self.write(Self.incrementPrefix, to: &cursor)
                JSONWriter.writeDecimal(delta, count: JSONWriter.decimalCount(of: delta), to: &cursor)
                Self.write(Self.incrementSuffix, to: &cursor)
            }
        }

        private static func write(_ text: StaticString, to cursor: inout BinaryCursor) {
            cursor.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    /// The value's JSON text (`appendJSON`) when it is one of the usual short values, whose length is known before
    /// it is written; nil for any other value (objects, strings, doubles, priorities, server values inside).
    public var shortJSON: ShortJSON? {
        guard self.hasServerValues else {
            if let source = self.sourceJSON { return .source(source) }
            if self.node.isEmpty { return .literal("null") }
            guard self.node.priority == nil else { return nil }
            switch self.node.leafValue {
            case .bool(let flag)?: return .literal(flag ? "true" : "false")
            case .int(let number)?: return .integer(number)
            case .double?, .string?, nil: return nil
            }
        }
        switch self.soleServerValue {
        case .timestamp?: return .literal(#"{".sv":"timestamp"}"#)
        case .increment(.int(let delta))?: return .increment(delta)
        case .increment?, nil: return nil
        }
    }
}
