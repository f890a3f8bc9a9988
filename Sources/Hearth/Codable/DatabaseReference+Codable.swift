import Foundation
import HearthCore

/// Writing `Encodable` values and reading `Decodable` ones, as FirebaseDatabase's Swift extensions do.
extension DatabaseReference {
    /// Writes `value` encoded with `encoder`.
    /// - Throws: the encoder's error (nothing is written); the write's own outcome reaches `completion`.
    public func setValue<T: Encodable>(
        from value: T,
        encoder: Database.Encoder = Database.Encoder(),
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) throws {
        let encoded = try encoder.encode(value)
        if let completion {
            self.setValue(encoded) { error, _ in completion(error) }
        } else {
            self.setValue(encoded)
        }
    }
}

extension DataSnapshot {
    /// The snapshot's `value` decoded as a `T` (`NSNull`, for no data, decodes as an optional's nil).
    public func data<T: Decodable>(as type: T.Type, decoder: Database.Decoder = Database.Decoder()) throws -> T {
        try decoder.decode(type, from: self.value ?? NSNull())
    }
}

extension MutableData {
    /// The data decoded as a `T`, inside a transaction block.
    public func data<T: Decodable>(as type: T.Type, decoder: Database.Decoder = Database.Decoder()) throws -> T {
        try decoder.decode(type, from: self.value ?? NSNull())
    }

    /// Sets the data to `value` encoded with `encoder`, inside a transaction block.
    public func setValue<T: Encodable>(from value: T, encoder: Database.Encoder = Database.Encoder()) throws {
        self.value = try encoder.encode(value)
    }
}
