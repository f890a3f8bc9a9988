public import Foundation
import HearthCore

extension Database {
    /// Turns `Encodable` values into the database's values (`[String: Any]`, `[Any]`, `NSNumber`, `String`), as
    /// FirebaseDatabase's `Database.Encoder` (FirebaseSharedSwift's `FirebaseDataEncoder`) does, with its strategy
    /// types and defaults: a `Date` as seconds since 2001 unless `dateEncodingStrategy` says otherwise (or the
    /// property is `@ServerTimestamp`), `Data` as base64, keys as written.
    public final class Encoder {
        /// How `Date` values are written.
        public enum DateEncodingStrategy {
            /// With `Date`'s own `Codable` form: seconds since 1 January 2001.
            case deferredToDate
            /// As seconds since 1970.
            case secondsSince1970
            /// As milliseconds since 1970 (what `ServerValue.timestamp()` fills in).
            case millisecondsSince1970
            /// As an ISO 8601 string.
            case iso8601
            /// As a string in the formatter's format.
            case formatted(DateFormatter)
            /// By the closure, which encodes into the encoder it is given.
            case custom((Date, any Swift.Encoder) throws -> Void)
        }

        /// How `Data` values are written.
        public enum DataEncodingStrategy {
            /// With `Data`'s own `Codable` form: an array of bytes.
            case deferredToData
            /// As a base64 string.
            case base64
            /// As the `Data` itself, which the database cannot store: encoding such a value throws
            /// `EncodingError.invalidValue` (FirebaseDatabase's `setValue` raises an exception for it instead).
            case blob
            /// By the closure, which encodes into the encoder it is given.
            case custom((Data, any Swift.Encoder) throws -> Void)
        }

        /// How infinities and NaN, which the database cannot store as numbers, are written.
        public enum NonConformingFloatEncodingStrategy {
            /// Throw `EncodingError.invalidValue`.
            case `throw`
            /// As these strings.
            case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
        }

        /// How the keys of `Codable` types are written.
        public enum KeyEncodingStrategy {
            /// As the type names them.
            case useDefaultKeys
            /// `camelCase` as `snake_case`.
            case convertToSnakeCase
            /// By the closure, from the coding path whose last key is being written.
            case custom((_ codingPath: [any CodingKey]) -> any CodingKey)
        }

        /// How `Date` values are written; `.deferredToDate` by default.
        public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
        /// How `Data` values are written; `.base64` by default.
        public var dataEncodingStrategy: DataEncodingStrategy = .base64
        /// How infinities and NaN are written; `.throw` by default.
        public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
        /// How keys are written; `.useDefaultKeys` by default.
        public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
        /// The types to hand through untouched; kept for source compatibility, not consulted (see
        /// `StructureCodingPassthroughTypeResolver`).
        public var passthroughTypeResolver: any StructureCodingPassthroughTypeResolver.Type = NoPassthroughTypes.self
        /// Values the types' `encode(to:)` can read from `encoder.userInfo`.
        public var userInfo: [CodingUserInfoKey: Any] = [:]

        /// An encoder with the default strategies.
        public init() {}

        /// The value as the database stores it: what `setValue(_:)` takes.
        /// - Throws: `EncodingError` from the value's `encode(to:)` or a strategy, or a `DatabaseErrors` error for a
        ///   value the database cannot store.
        public func encode<T: Encodable>(_ value: T) throws -> sending Any {
            try self.json(value).foundationValue ?? NSNull()
        }

        /// The value as JSON, through Foundation's `JSONEncoder` with this encoder's strategies.
        func json<T: Encodable>(_ value: T) throws -> JSONValue {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = self.keyEncodingStrategy.foundation
            encoder.dateEncodingStrategy = self.dateEncodingStrategy.foundation
            encoder.dataEncodingStrategy = self.dataEncodingStrategy.foundation
            encoder.nonConformingFloatEncodingStrategy = self.nonConformingFloatEncodingStrategy.foundation
            encoder.userInfo = CodingUserInfo.foundation(self.userInfo)
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
        case .object(let members):
            // A `[String: Any]` holds one entry for names that differ only in their normalisation: the later in key
            // order, as `Node.foundationValue` keeps (members in key order, so the choice is the same every run).
            Dictionary(
                members.sorted { $0.key.key < $1.key.key }.map { ($0.key.string, $0.value.foundationValue ?? NSNull()) }
            ) { _, last in last }
        }
    }
}
