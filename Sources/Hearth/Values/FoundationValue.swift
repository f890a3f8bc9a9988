import Foundation
package import HearthCore

/// Turns the values a Swift app hands the database (`NSNumber`, `Bool`, integers, `Double`, `String`,
/// dictionaries, arrays, `NSNull`, `nil`, `ServerValue` placeholders) into JSON, the form every write takes before
/// the shared write rules (`WriteValue(json:depth:)`) check it.
///
/// The same types FirebaseDatabase accepts; anything else (a `Date`, a custom class) is refused with an error that
/// names the type and where it sits, instead of FirebaseDatabase's exception.
package enum FoundationValue {
    /// - Parameter location: where the value sits, for messages (`/users/ada/age`).
    /// - Throws: `DatabaseValueError` for a value of a type the database cannot store, a non-finite number, or a
    ///   dictionary key that is not a string.
    package static func json(_ value: Any?, at location: String) throws(DatabaseValueError) -> JSONValue {
        guard let value else { return .null }
        if let number = value as? NSNumber, !(value is String) {
            return try Self.json(number, native: value, at: location)
        }
        switch value {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let dictionary as [String: Any]: return try Self.object(dictionary, at: location)
        case let dictionary as [AnyHashable: Any]:
            var members: [String: Any] = [:]
            for (key, member) in dictionary {
                guard let name = key.base as? String else {
                    throw DatabaseValueError(
                        "Cannot store the dictionary at \(location): its key \(key) is a \(type(of: key.base)); keys "
                            + "must be strings.")
                }
                members[name] = member
            }
            return try Self.object(members, at: location)
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for (offset, element) in array.enumerated() {
                elements.append(try Self.json(element, at: location + "/\(offset)"))
            }
            return .array(elements)
        default:
            throw DatabaseValueError(
                "Cannot store an object of type \(type(of: value)) at \(location). Store numbers, booleans, strings, "
                    + "dictionaries, arrays, nil or NSNull.")
        }
    }

    private static func object(_ members: [String: Any], at location: String) throws(DatabaseValueError) -> JSONValue {
        var object: [JSONKey: JSONValue] = [:]
        object.reserveCapacity(members.count)
        for (key, member) in members {
            object[JSONKey(key)] = try Self.json(member, at: location == "/" ? "/" + key : location + "/" + key)
        }
        return .object(object)
    }

    private static func json(_ number: NSNumber, native: Any, at location: String) throws(DatabaseValueError)
        -> JSONValue
    {
        if type(of: native) == Bool.self { return .bool(number.boolValue) }
        if let integer = native as? any BinaryInteger {
            if let exact = Int64(exactly: integer) { return .int(exact) }
            return .double(Double(integer))
        }
        if Self.isBoolean(number) { return .bool(number.boolValue) }
        switch String(cString: number.objCType) {
        case "d", "f": break
        case "Q", "L", "I", "S", "C":
            if let exact = Int64(exactly: number.uint64Value) { return .int(exact) }
            return .double(number.doubleValue)
        default: return .int(number.int64Value)
        }
        let double = number.doubleValue
        guard double.isFinite else {
            throw DatabaseValueError("Cannot store \(double) at \(location): numbers must be finite.")
        }
        return .double(double)
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
            CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
            String(cString: number.objCType) == "c"
        #endif
    }
}
