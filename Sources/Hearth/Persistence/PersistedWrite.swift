package import HearthCore

/// A write the app made that the server has not confirmed, as the write log keeps it: what is needed to make it
/// again after a restart (the value as sent, server values unresolved).
package struct PersistedWrite: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// `setValue` (and `removeValue`): `data` is the value.
        case set
        /// `updateChildValues`: `data` is an object of relative paths to values.
        case update
        /// `setPriority`: `data` is the priority, `null` for none.
        case priority
    }

    package var kind: Kind
    package var path: Path
    package var data: JSONValue

    package init(kind: Kind, path: Path, data: JSONValue) {
        self.kind = kind
        self.path = path
        self.data = data
    }

    /// `{"k": kind, "p": path, "d": data}`.
    var json: JSONValue {
        .object(["k": .string(self.kind.rawValue), "p": .string(self.path.description), "d": self.data])
    }

    /// Reads what `json` wrote; nil for anything else.
    init?(json: JSONValue) {
        guard let kind = json["k"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let text = json["p"]?.stringValue, let path = try? Path(validating: text), let data = json["d"]
        else { return nil }
        self.init(kind: kind, path: path, data: data)
    }
}
