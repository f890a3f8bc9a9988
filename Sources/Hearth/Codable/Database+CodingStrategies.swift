import Foundation

/// FirebaseDatabase's strategy types as Foundation's JSON coders take them: Hearth's coders go through JSON, so
/// each case maps to `JSONEncoder`'s or `JSONDecoder`'s case of the same meaning. The app's closures are not
/// `@Sendable` (FirebaseDatabase's are not); they run only inside the one synchronous `encode`/`decode` call that
/// set them up, on the caller's thread, so handing them over unchecked is safe.
extension Database.Encoder.DateEncodingStrategy {
    var foundation: JSONEncoder.DateEncodingStrategy {
        switch self {
        case .deferredToDate: .deferredToDate
        case .secondsSince1970: .secondsSince1970
        case .millisecondsSince1970: .millisecondsSince1970
        case .iso8601: .iso8601
        case .formatted(let formatter): .formatted(formatter)
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in try box.value($0, $1) }
        }
    }
}

extension Database.Encoder.DataEncodingStrategy {
    var foundation: JSONEncoder.DataEncodingStrategy {
        switch self {
        case .deferredToData: .deferredToData
        case .base64: .base64
        case .blob:
            .custom { data, encoder in
                throw EncodingError.invalidValue(
                    data,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "The database cannot store Data as a blob; use .base64 or .custom."))
            }
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in try box.value($0, $1) }
        }
    }
}

extension Database.Encoder.NonConformingFloatEncodingStrategy {
    var foundation: JSONEncoder.NonConformingFloatEncodingStrategy {
        switch self {
        case .throw: .throw
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
            .convertToString(positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
        }
    }
}

extension Database.Encoder.KeyEncodingStrategy {
    var foundation: JSONEncoder.KeyEncodingStrategy {
        switch self {
        case .useDefaultKeys: .useDefaultKeys
        case .convertToSnakeCase: .convertToSnakeCase
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in box.value($0) }
        }
    }
}

extension Database.Decoder.DateDecodingStrategy {
    var foundation: JSONDecoder.DateDecodingStrategy {
        switch self {
        case .deferredToDate: .deferredToDate
        case .secondsSince1970: .secondsSince1970
        case .millisecondsSince1970: .millisecondsSince1970
        case .iso8601: .iso8601
        case .formatted(let formatter): .formatted(formatter)
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in try box.value($0) }
        }
    }
}

extension Database.Decoder.DataDecodingStrategy {
    var foundation: JSONDecoder.DataDecodingStrategy {
        switch self {
        case .deferredToData: .deferredToData
        case .base64: .base64
        case .blob:
            .custom { decoder in
                throw DecodingError.typeMismatch(
                    Data.self,
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "Expected to decode Data as a blob, but the database holds none."))
            }
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in try box.value($0) }
        }
    }
}

extension Database.Decoder.NonConformingFloatDecodingStrategy {
    var foundation: JSONDecoder.NonConformingFloatDecodingStrategy {
        switch self {
        case .throw: .throw
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
            .convertFromString(positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
        }
    }
}

extension Database.Decoder.KeyDecodingStrategy {
    var foundation: JSONDecoder.KeyDecodingStrategy {
        switch self {
        case .useDefaultKeys: .useDefaultKeys
        case .convertFromSnakeCase: .convertFromSnakeCase
        case .custom(let closure):
            .custom { [box = UncheckedSendable(closure)] in box.value($0) }
        }
    }
}

/// An app closure handed to Foundation's coders, which take `@Sendable` ones; see the note above.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The coders' `userInfo` as Foundation's JSON coders take it.
enum CodingUserInfo {
    /// `userInfo` typed as `JSONEncoder.userInfo` / `JSONDecoder.userInfo` are: FirebaseDatabase's coders take
    /// `[CodingUserInfoKey: Any]`, Foundation's `[CodingUserInfoKey: any Sendable]`. `Any` and `any Sendable` have
    /// the same layout (`Sendable` is a marker protocol), and the dictionary is read only inside the one
    /// synchronous `encode`/`decode` call, so the values stay the app's own, readable with `as?`.
    static func foundation(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
        unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
    }
}
