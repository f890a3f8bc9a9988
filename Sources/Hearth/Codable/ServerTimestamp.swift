public import Foundation

/// A `Date` property the server fills in, as FirebaseDatabase's `@ServerTimestamp`: a nil date is written as
/// `ServerValue.timestamp()`, a date as milliseconds since 1970, and read back from those milliseconds.
///
/// ```swift
/// struct Post: Codable { var title: String; @ServerTimestamp var createdAt: Date? }
/// ```
@propertyWrapper
public struct ServerTimestamp: Codable, Equatable, Hashable, Sendable {
    public var wrappedValue: Date?

    public init(wrappedValue: Date?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self.wrappedValue = nil
        } else {
            let milliseconds = try container.decode(Int64.self)
            self.wrappedValue = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
    }

    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        if let date = self.wrappedValue {
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        } else {
            try container.encode([".sv": "timestamp"])
        }
    }
}

extension KeyedDecodingContainer {
    /// A `@ServerTimestamp` property whose key is missing decodes as nil, as an optional property would (the
    /// synthesized `init(from:)` calls this overload for it).
    public func decode(_ type: ServerTimestamp.Type, forKey key: Key) throws -> ServerTimestamp {
        try self.decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
    }
}
