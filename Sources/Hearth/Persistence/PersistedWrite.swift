package import HearthCore
package import HearthWire

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
    /// The origin the write was sent with, so that it is sent with the same one after a restart and a server that
    /// applied it before does not apply it again.
    package var origin: WriteOrigin?

    package init(kind: Kind, path: Path, data: JSONValue, origin: WriteOrigin? = nil) {
        self.kind = kind
        self.path = path
        self.data = data
        self.origin = origin
    }

    /// `{"k": kind, "p": path, "d": data, "o": origin}` (no `o` for a write without one).
    var json: JSONValue {
        var members: [JSONKey: JSONValue] = [
            "k": .string(self.kind.rawValue), "p": .string(self.path.description), "d": self.data,
        ]
        if let origin = self.origin { members["o"] = origin.wireValue }
        return .object(members)
    }

    /// Reads what `json` wrote; nil for anything else.
    init?(json: JSONValue) {
        guard let kind = json["k"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let text = json["p"]?.stringValue, let path = try? Path(validating: text), let data = json["d"]
        else { return nil }
        var origin: WriteOrigin?
        if let logged = json["o"] {
            guard let read = try? WriteOrigin(wire: logged) else { return nil }
            origin = read
        }
        self.init(kind: kind, path: path, data: data, origin: origin)
    }
}
