public import Foundation
import HearthCore

extension Database {
    /// Turns the database's values back into `Decodable` types, as FirebaseDatabase's `Database.Decoder` does,
    /// with `JSONDecoder`'s strategies and defaults (the counterparts of `Database.Encoder`'s).
    public final class Decoder {
        public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
        public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
        public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
        public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

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
            return try self.decode(type, fromJSON: json.jsonBytes())
        }

        func decode<T: Decodable>(_ type: T.Type, fromJSON bytes: [UInt8]) throws -> T {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = self.keyDecodingStrategy
            decoder.dateDecodingStrategy = self.dateDecodingStrategy
            decoder.dataDecodingStrategy = self.dataDecodingStrategy
            decoder.nonConformingFloatDecodingStrategy = self.nonConformingFloatDecodingStrategy
            decoder.userInfo = self.userInfo
            return try decoder.decode(type, from: Data(bytes))
        }
    }
}
