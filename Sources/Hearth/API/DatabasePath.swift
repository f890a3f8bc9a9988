import HearthCore

/// Paths as the API takes them: `child("users/ada")`, `reference(withPath:)`. Slashes separate keys (leading,
/// trailing and doubled ones are ignored); each key follows Firebase's rules, except that `.info` may start a path
/// to read the client's own `.info` data.
enum DatabasePath {
    /// - Parameter method: the API call, named in the error as FirebaseDatabase names it.
    /// - Throws: `DatabaseValueError` with Firebase's rule for the key that breaks it.
    static func parse(_ string: String, under base: Path = .root, method: String) throws(DatabaseValueError) -> Path {
        var keys = base.keys
        for piece in string.split(separator: "/", omittingEmptySubsequences: true) {
            let text = String(piece)
            if keys.isEmpty && text == InfoData.rootKey.string {
                keys.append(InfoData.rootKey)
                continue
            }
            do {
                keys.append(try Key(validating: text))
            } catch {
                throw DatabaseValueError("(\(method)) \(error.message)")
            }
        }
        do {
            try Path.checkLimits(keys)
        } catch {
            throw DatabaseValueError("(\(method)) \(error.message)")
        }
        return Path(keys: keys)
    }

    /// Whether `path` is in the client's own `.info` data, which the app cannot write.
    static func isInfo(_ path: Path) -> Bool {
        path.first == InfoData.rootKey
    }
}
