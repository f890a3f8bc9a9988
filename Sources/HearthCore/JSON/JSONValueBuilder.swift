/// Builds a `JSONValue` from `JSONReader`'s events; objects keep the last value of a duplicated key.
public struct JSONValueBuilder: JSONBuilder {
    public typealias Value = JSONValue
    public typealias Failure = JSONError

    /// An object or array being filled. An object's members are gathered in order and hashed once, at its end:
    /// filling a dictionary member by member rehashed it at every doubling (3 % of a node's CPU for the thousand
    /// members of a post put whole).
    public struct Container {
        var isArray: Bool
        var members: [(JSONKey, JSONValue)] = []
        var elements: [JSONValue] = []
        var pendingKey = ""
    }

    public init() {}

    public static func failure(_ syntaxError: JSONError) -> JSONError { syntaxError }

    public mutating func makeNull() -> JSONValue { .null }
    public mutating func makeBool(_ value: Bool) -> JSONValue { .bool(value) }
    public mutating func makeInt(_ value: Int64) -> JSONValue { .int(value) }
    public mutating func makeDouble(_ value: Double) -> JSONValue { .double(value) }
    public mutating func makeString(_ value: String) -> JSONValue { .string(value) }

    /// Room for this many members is made when an object begins: protocol messages are nests of small objects,
    /// and growing an empty array to four members costs three allocations where this costs one.
    static let expectedMembers = 4

    public mutating func beginObject() -> Container {
        var container = Container(isArray: false)
        container.members.reserveCapacity(Self.expectedMembers)
        return container
    }
    public mutating func beginArray() -> Container { Container(isArray: true) }

    public mutating func beginMember(_ key: String, in container: inout Container) {
        container.pendingKey = key
    }

    public mutating func beginElement(in container: inout Container) {}

    public mutating func endMember(_ value: JSONValue, in container: inout Container) {
        if container.isArray {
            container.elements.append(value)
        } else {
            container.members.append((JSONKey(container.pendingKey), value))
        }
    }

    public mutating func endObject(_ container: Container) -> JSONValue {
        .object(Dictionary(container.members) { _, last in last })
    }
    public mutating func endArray(_ container: Container) -> JSONValue { .array(container.elements) }
}
