public import Foundation
import HearthCore

extension Database {
    /// Turns `Encodable` values into the database's values (`[String: Any]`, `[Any]`, `NSNumber`, `String`), as
    /// FirebaseDatabase's `Database.Encoder` does, with `JSONEncoder`'s strategies and defaults: a `Date` as
    /// seconds since 2001 unless `dateEncodingStrategy` says otherwise (or the property is `@ServerTimestamp`),
    /// `Data` as base64, keys as written.
    public final class Encoder {
        public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
        public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
        public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
        public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
        public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

        public init() {}

        /// The value as the database stores it: what `setValue(_:)` takes.
        /// - Throws: `EncodingError` from the value's `encode(to:)`, or a `DatabaseErrors` error for a value the
        ///   database cannot store.
        public func encode<T: Encodable>(_ value: T) throws -> Any {
            try self.json(value).foundationValue ?? NSNull()
        }

        /// The value as JSON, through Foundation's `JSONEncoder` with this encoder's strategies.
        func json<T: Encodable>(_ value: T) throws -> JSONValue {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = self.keyEncodingStrategy
            encoder.dateEncodingStrategy = self.dateEncodingStrategy
            encoder.dataEncodingStrategy = self.dataEncodingStrategy
            encoder.nonConformingFloatEncodingStrategy = self.nonConformingFloatEncodingStrategy
            encoder.userInfo = self.userInfo
            return try JSONReader.parseValue(Array(try encoder.encode(value)))
        }
    }
}

extension JSONValue {
    /// The JSON as the app's values: `NSNumber`, `String`, `[String: Any]`, `[Any]`; nil for `null`.
    var foundationValue: Any? {
        switch self {
        case .null: nil
        case .bool(let value): NSNumber(value: value)
        case .int(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .string(let value): value
        case .array(let elements): elements.map { $0.foundationValue ?? NSNull() }
        case .object(let members): members.mapValues { $0.foundationValue ?? NSNull() }
        }
    }
}
