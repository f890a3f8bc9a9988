public import HearthCore

/// A write (or a path) that breaks Firebase's rules, named precisely enough for every front end to word it its own
/// way: REST as a 400 `{"error": "Invalid data; …"}`, the realtime protocol as an `invalid_data` status.
///
/// `description` is the realtime protocol's wording, which says what to change.
public enum WriteRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A request's path is not a valid location; `reason` is the `PathError` message.
    case invalidPath(String, reason: String)
    /// One key of a multi-path update is not a valid relative path; `reason` is the `PathError` message.
    case invalidUpdateKey(String, reason: String)
    /// A body that is not JSON at all; `reason` is the `JSONError` message.
    case invalidJSON(reason: String)
    /// The value written at a path breaks the data rules (a bad key, too deep, a bad server value…).
    case invalidValue(Path, reason: String)
    /// A priority that is not a number, a string, null or a server value.
    case invalidPriority(Path)
    /// Two paths of one update where one equals or lies inside the other.
    case overlappingPaths(Path, Path)
    /// A `writeSizeLimit` that is not one of Firebase's names.
    case unknownSizeLimit(String)
    /// A write whose size plus the data it replaces passes its `writeSizeLimit`.
    case sizeLimitExceeded(String)

    public var description: String {
        switch self {
        case .invalidPath(let text, let reason), .invalidUpdateKey(let text, let reason):
            "Invalid path \"\(text)\": \(reason)"
        case .invalidJSON(let reason):
            "The value is not valid JSON: \(reason)"
        case .invalidValue(let path, let reason):
            "Invalid data at \(path): \(reason)"
        case .invalidPriority(let path):
            "Invalid priority at \(path): use a number, a string or null."
        case .overlappingPaths(let first, let second):
            "Merge paths \(first) and \(second) overlap; no path may equal or lie inside another."
        case .unknownSizeLimit(let name):
            "writeSizeLimit must be tiny, small, medium, large or unlimited (got \"\(name)\")."
        case .sizeLimitExceeded(let name):
            "Data to write exceeds writeSizeLimit=\(name); use a larger writeSizeLimit or write smaller parts."
        }
    }
}
