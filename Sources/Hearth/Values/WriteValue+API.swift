import Foundation
import HearthCore

/// The API's values as writes: every value passes the write rules the server applies (`WriteValue(json:depth:)`),
/// so a value the server would refuse is refused here first, with the same message.
extension WriteValue {
    /// `value` (and `priority`, unless nil) checked as a write at `path`.
    static func make(_ value: Any?, priority: Any? = nil, at path: Path) throws(DatabaseValueError) -> WriteValue {
        var json = try FoundationValue.json(value, at: path.description)
        if let priority = try Self.priorityJSON(priority, at: path) {
            json = .object([".value": json, ".priority": priority])
        }
        return try Self.checked(json, at: path)
    }

    /// JSON checked as a write at `path`.
    static func checked(_ json: JSONValue, at path: Path) throws(DatabaseValueError) -> WriteValue {
        do {
            return try WriteValue(json: json, depth: path.count)
        } catch let error as PathError {
            throw DatabaseValueError(error.message)
        } catch let error as JSONError {
            throw DatabaseValueError(error.message)
        } catch {
            throw DatabaseValueError("Cannot store the value at \(path): \(error)")
        }
    }

    /// A priority as the API takes it: an `NSNumber` (not a boolean), a `String`, or nil / `NSNull` for none.
    static func priority(_ value: Any?, at path: Path) throws(DatabaseValueError) -> Priority? {
        switch try Self.priorityJSON(value, at: path) {
        case .int(let number)?: .int(number)
        case .double(let number)?: .double(number)
        case .string(let string)?: .string(string)
        default: nil
        }
    }

    private static func priorityJSON(_ value: Any?, at path: Path) throws(DatabaseValueError) -> JSONValue? {
        guard let value, !(value is NSNull) else { return nil }
        let json = try FoundationValue.json(value, at: path.description + "/.priority")
        switch json {
        case .int, .double, .string: return json
        default:
            throw DatabaseValueError(
                "Cannot set the priority at \(path) to \(value): a priority is a number, a string or nil.")
        }
    }

    /// This value with `other` written at the relative `path`: what was there, server values included, is replaced.
    func replacing(at path: Path, with other: WriteValue) -> WriteValue {
        var result = WriteValue(node: self.node.setting(other.node, at: path))
        result.placeholders = self.placeholders.filter { !path.contains($0.path) }
        result.placeholders += other.placeholders.map { placeholder in
            var moved = placeholder
            moved.path = path.appending(placeholder.path)
            return moved
        }
        result.pendingPriorities = self.pendingPriorities.filter { !path.contains($0.key) }
        for (relative, priority) in other.pendingPriorities {
            result.pendingPriorities[path.appending(relative)] = priority
        }
        return result
    }

    /// The part of this value at the relative `path`, as a value of its own.
    func subtree(at path: Path) -> WriteValue {
        guard !path.isRoot else { return self }
        var result = WriteValue(node: self.node.node(at: path))
        result.placeholders = self.placeholders.compactMap { placeholder in
            guard let relative = path.relativePath(to: placeholder.path) else { return nil }
            var moved = placeholder
            moved.path = relative
            return moved
        }
        for (location, priority) in self.pendingPriorities {
            if let relative = path.relativePath(to: location) { result.pendingPriorities[relative] = priority }
        }
        return result
    }
}
