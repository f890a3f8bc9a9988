import Foundation
package import HearthCore

/// The values a snapshot hands an app, in FirebaseDatabase's shapes: `NSNumber` for numbers and booleans,
/// `String`, `[String: Any]` for children, `[Any]` for children keyed like an array, nil for no data.
///
/// These shapes make the docs' casts work on Linux as on Apple platforms: `as? Int`, `as? Bool`,
/// `as? TimeInterval` (an `NSNumber` casts to `Double` where a Swift `Int` would not), `as? [String: AnyObject]`,
/// `as? NSDictionary`, `as? [String: Bool]`.
///
/// Two children whose keys differ only in their Unicode normalisation (`"é"` and `"e\u{301}"`) are one key to a
/// `[String: Any]`: it holds one entry with the value of the later in key order (`"é"`'s). FirebaseDatabase's
/// `NSDictionary` holds both on Apple platforms, but merges them too once cast to `[String: Any]`; the snapshot's
/// `children`, `childSnapshot(forPath:)` and child events keep both, as the database does.
extension Node {
    /// The node's value as Firebase shows it: children keyed `0`, `1`, … that fill more than half of the range up
    /// to their largest key become an array (the gaps `NSNull`), as in every Firebase client; priorities are left
    /// out.
    package var foundationValue: Any? {
        self.foundationValue(exportFormat: false)
    }

    /// `valueInExportFormat`: as `foundationValue`, but priorities are kept (`.priority` beside children,
    /// `{".value": v, ".priority": p}` for a leaf with one) and children always form dictionaries.
    package var exportFoundationValue: Any? {
        self.foundationValue(exportFormat: true)
    }

    private func foundationValue(exportFormat: Bool) -> Any? {
        if self.isEmpty { return nil }
        let priority = exportFormat ? self.priority.map(\.leafValue.foundationValue) : nil
        if let leaf = self.leafValue {
            guard let priority else { return leaf.foundationValue }
            return [".value": leaf.foundationValue, ".priority": priority] as [String: Any]
        }
        if !exportFormat, let array = self.arrayValue() { return array }
        var members: [String: Any] = [:]
        members.reserveCapacity(self.childCount + 1)
        for element in self.children {
            members[element.key.string] = element.node.foundationValue(exportFormat: exportFormat)
        }
        if let priority { members[".priority"] = priority }
        return members
    }

    /// The children as an array when every key is a non-negative integer and the largest is below twice their
    /// number (Firebase's rule).
    private func arrayValue() -> [Any]? {
        var largest = -1
        for element in self.children {
            guard let index = element.key.integerValue, index >= 0 else { return nil }
            largest = max(largest, Int(index))
        }
        guard largest < 2 * self.childCount else { return nil }
        var array = [Any](repeating: NSNull(), count: largest + 1)
        for element in self.children {
            if let index = element.key.integerValue, let value = element.node.foundationValue(exportFormat: false) {
                array[Int(index)] = value
            }
        }
        return array
    }
}

extension LeafValue {
    /// The leaf as Firebase's clients hand it out: `NSNumber` for numbers and booleans, `String` for strings.
    package var foundationValue: Any {
        switch self {
        case .bool(let value): NSNumber(value: value)
        case .int(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .string(let value): value
        }
    }
}
