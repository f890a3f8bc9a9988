public import HearthCore

/// The docs' `toggleStar` transaction update, on the post's JSON as the client last saw it.
public enum StarToggle {
    /// The post after `uid` toggles their star, and whether it now holds the star; nil for a post that does not
    /// exist (the docs' update leaves it alone).
    public static func toggled(_ post: JSONValue, uid: String) -> (post: JSONValue, starred: Bool)? {
        guard case .object(var members) = post else { return nil }
        var stars: [JSONKey: JSONValue] = [:]
        if case .object(let existing)? = members["stars"] { stars = existing }
        let count = Self.count(members["starCount"])
        let starring = stars[JSONKey(uid)] == nil
        if starring {
            stars[JSONKey(uid)] = .bool(true)
        } else {
            stars[JSONKey(uid)] = nil
        }
        members["starCount"] = .int(count + (starring ? 1 : -1))
        members["stars"] = stars.isEmpty ? nil : .object(stars)
        return (.object(members), starring)
    }

    /// `starCount` as a number (absent counts as 0, as in the docs' JavaScript).
    static func count(_ value: JSONValue?) -> Int64 {
        switch value {
        case .int(let count)?: count
        case .double(let count)?: Int64(count)
        default: 0
        }
    }
}
