import HearthWire

/// How REST words a broken write rule: status 400 with the texts Firebase's REST API uses ("Invalid data; …").
extension RESTError {
    init(_ rule: WriteRuleError) {
        switch rule {
        case .invalidPath(_, let reason):
            self = .invalidPath(reason)
        case .invalidUpdateKey(let key, let reason):
            self.init(400, "Invalid data; update key \"\(key)\" is not a valid path: \(reason)")
        case .invalidJSON:
            self = .invalidJSON
        case .invalidValue(_, let reason):
            self = .invalidData(reason)
        case .invalidPriority:
            self.init(400, "Invalid data; a priority must be a number, a string or null.")
        case .overlappingPaths(let first, let second):
            self.init(
                400,
                "Invalid data; update paths \(first) and \(second) overlap: no path may equal or lie inside another "
                    + "in one update.")
        case .unknownSizeLimit, .sizeLimitExceeded:
            self.init(400, rule.description)
        }
    }
}
