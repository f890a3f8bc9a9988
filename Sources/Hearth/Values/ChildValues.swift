import HearthCore

/// `updateChildValues`' dictionary as the engine takes it: relative paths (leading, trailing and doubled slashes
/// ignored) with values that pass the write rules, none inside another.
enum ChildValues {
    /// - Throws: `DatabaseValueError` for a key that is not a string or not a path, a value the database cannot
    ///   store, or one path inside another (the update would be ambiguous).
    static func parse(_ values: [AnyHashable: Any], at path: Path) throws(DatabaseValueError)
        -> [(relative: Path, value: WriteValue)]
    {
        var entries: [(relative: Path, value: WriteValue)] = []
        for (key, value) in values {
            guard let string = key.base as? String else {
                throw DatabaseValueError(
                    "(updateChildValues) Keys are paths, written as strings; got \(key) (\(type(of: key.base))).")
            }
            let relative = try DatabasePath.parse(string, method: "updateChildValues")
            guard !DatabasePath.isInfo(relative) else {
                throw DatabaseValueError("(updateChildValues) Cannot write to .info: it holds the client's own data.")
            }
            let target = path.appending(relative)
            entries.append((relative, try WriteValue.make(value, at: target)))
        }
        entries.sort { $0.relative < $1.relative }
        for (earlier, later) in zip(entries, entries.dropFirst()) where earlier.relative.contains(later.relative) {
            throw DatabaseValueError(
                "(updateChildValues) Invalid path in object. Path (\(earlier.relative.slashless)) is an ancestor "
                    + "of (\(later.relative.slashless)).")
        }
        return entries
    }
}
