public import HearthCore

/// A JSON value carried in a server message: a small protocol value, or database data.
///
/// Database data (pushes, a get's answer) is written from the tree in export format straight into the message
/// bytes, never through `JSONValue`, so a large push costs one pass. A decoded message always holds `.json`, since
/// the bytes do not say where they came from; two values are equal when they are the same JSON.
public enum WireData: Sendable, CustomStringConvertible {
    /// A protocol value, such as `{}`, `""` or a listen's warnings.
    case json(JSONValue)
    /// Database data, written in export format (`.value`/`.priority` where a node has a priority).
    case node(Node)

    /// Appends the value's JSON to `bytes`.
    /// - Complexity: O(n) in the size of the value.
    public func write(into bytes: inout [UInt8]) {
        switch self {
        // Every write's acknowledgement carries this one: two bytes appended, with no array made for them.
        case .json(.object(let members)) where members.isEmpty:
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "}"))
        case .json(let value): bytes += value.jsonBytes()
        case .node(let node): bytes += node.jsonBytes(format: .export)
        }
    }

    /// The value as compact JSON.
    public var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        self.write(into: &bytes)
        return bytes
    }

    /// The value as a `JSONValue`, read back from its JSON so `.json` and `.node` forms compare alike.
    public var jsonValue: JSONValue {
        switch self {
        case .json(let value): (try? JSONReader.parseValue(value.jsonBytes())) ?? value
        case .node(let node): (try? JSONReader.parseValue(node.jsonBytes(format: .export))) ?? .null
        }
    }

    /// The value as a tree, the way a client stores what the server pushed.
    /// - Throws: `WireProtocolError` `.malformedFrame` when the JSON breaks Firebase's data rules or holds a server
    ///   value (the server resolves those before anything is pushed).
    public func tree() throws(WireProtocolError) -> Node {
        switch self {
        case .node(let node):
            return node
        case .json(let json):
            let value: WriteValue
            do {
                value = try WriteValue(json: json, depth: 0)
            } catch {
                throw WireProtocolError(.malformedFrame, "The server sent data that is not a Firebase tree: \(error)")
            }
            guard !value.hasServerValues else {
                throw WireProtocolError(.malformedFrame, "The server sent data holding an unresolved server value.")
            }
            return value.node
        }
    }

    public var description: String { String(decoding: self.jsonBytes, as: UTF8.self) }
}

extension WireData: Equatable {
    public static func == (lhs: WireData, rhs: WireData) -> Bool {
        lhs.jsonValue == rhs.jsonValue
    }
}
