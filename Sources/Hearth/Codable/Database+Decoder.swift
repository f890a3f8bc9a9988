public import Foundation
import HearthCore

extension Database {
    /// Turns the database's values back into `Decodable` types, as FirebaseDatabase's `Database.Decoder`
    /// (FirebaseSharedSwift's `FirebaseDataDecoder`) does, with its strategy types and defaults (the counterparts
    /// of `Database.Encoder`'s).
    public final class Decoder {
        /// How `Date` values are read.
        public enum DateDecodingStrategy {
            /// With `Date`'s own `Codable` form: seconds since 1 January 2001.
            case deferredToDate
            /// From seconds since 1970.
            case secondsSince1970
            /// From milliseconds since 1970 (what `ServerValue.timestamp()` fills in).
            case millisecondsSince1970
            /// From an ISO 8601 string.
            case iso8601
            /// From a string in the formatter's format.
            case formatted(DateFormatter)
            /// By the closure, which decodes from the decoder it is given.
            case custom((_ decoder: any Swift.Decoder) throws -> Date)
        }

        /// How `Data` values are read.
        public enum DataDecodingStrategy {
            /// With `Data`'s own `Codable` form: an array of bytes.
            case deferredToData
            /// From a base64 string.
            case base64
            /// From a `Data` value, which the database never holds: decoding one throws
            /// `DecodingError.typeMismatch`, as FirebaseDatabase's decoder does for a value that is not `Data`.
            case blob
            /// By the closure, which decodes from the decoder it is given.
            case custom((_ decoder: any Swift.Decoder) throws -> Data)
        }

        /// How infinities and NaN written as strings are read.
        public enum NonConformingFloatDecodingStrategy {
            /// A string where a number is expected is a type mismatch.
            case `throw`
            /// These strings stand for infinities and NaN.
            case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
        }

        /// How the database's keys map to the keys of `Codable` types.
        public enum KeyDecodingStrategy {
            /// As written.
            case useDefaultKeys
            /// `snake_case` as `camelCase`.
            case convertFromSnakeCase
            /// By the closure, from the coding path whose last key is being read.
            case custom((_ codingPath: [any CodingKey]) -> any CodingKey)
        }

        /// How `Date` values are read; `.deferredToDate` by default.
        public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
        /// How `Data` values are read; `.base64` by default.
        public var dataDecodingStrategy: DataDecodingStrategy = .base64
        /// How infinities and NaN are read; `.throw` by default.
        public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
        /// How keys are read; `.useDefaultKeys` by default.
        public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
        /// The types to hand through untouched; kept for source compatibility, not consulted (see
        /// `StructureCodingPassthroughTypeResolver`).
        public var passthroughTypeResolver: any StructureCodingPassthroughTypeResolver.Type = NoPassthroughTypes.self
        /// Values the types' `init(from:)` can read from `decoder.userInfo`.
        public var userInfo: [CodingUserInfoKey: Any] = [:]

        /// A decoder with the default strategies.
        public init() {}

        /// `structure` (a snapshot's `value`, `NSNull` for none) as a `T`.
        /// - Throws: `DecodingError` when the data does not fit `T` (a missing key, a wrong type), or a
        ///   `DatabaseErrors` error when `structure` is not a database value.
        public func decode<T: Decodable>(_ type: T.Type, from structure: Any) throws -> T {
            let json: JSONValue
            do {
                json = try FoundationValue.json(structure, at: "/")
            } catch {
                throw DatabaseErrors.error(error)
            }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = self.keyDecodingStrategy.foundation
            decoder.dateDecodingStrategy = self.dateDecodingStrategy.foundation
            decoder.dataDecodingStrategy = self.dataDecodingStrategy.foundation
            decoder.nonConformingFloatDecodingStrategy = self.nonConformingFloatDecodingStrategy.foundation
            decoder.userInfo = CodingUserInfo.foundation(self.userInfo)
            return try decoder.decode(type, from: Data(json.jsonBytes()))
        }
    }
}
