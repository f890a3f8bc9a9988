/// Replaying a `JSONValue` into a `JSONBuilder`, so rules written as builders also apply to parsed messages.
extension JSONValue {
    /// Sends this value to `builder` as `JSONReader` would send the equivalent document.
    ///
    /// Object members arrive in no particular order. Values nested deeper than
    /// `JSONReader.defaultMaximumNesting` throw `JSONError.Code.nestingTooDeep`.
    /// - Complexity: O(n) builder calls; recursion as deep as the value.
    public func build<Builder: JSONBuilder>(into builder: inout Builder) throws(Builder.Failure) -> Builder.Value {
        try self.build(into: &builder, nesting: 0)
    }

    private func build<Builder: JSONBuilder>(
        into builder: inout Builder,
        nesting: Int
    ) throws(Builder.Failure) -> Builder.Value {
        switch self {
        case .null: return try builder.makeNull()
        case .bool(let flag): return try builder.makeBool(flag)
        case .int(let number): return try builder.makeInt(number)
        case .double(let number): return try builder.makeDouble(number)
        case .string(let text): return try builder.makeString(text)
        case .array(let elements):
            try Self.checkNesting(nesting, Builder.self)
            var container = try builder.beginArray()
            for element in elements {
                try builder.beginElement(in: &container)
                let value = try element.build(into: &builder, nesting: nesting + 1)
                try builder.endMember(value, in: &container)
            }
            return try builder.endArray(container)
        case .object(let members):
            try Self.checkNesting(nesting, Builder.self)
            var container = try builder.beginObject()
            for (key, member) in members {
                try builder.beginMember(key.string, in: &container)
                let value = try member.build(into: &builder, nesting: nesting + 1)
                try builder.endMember(value, in: &container)
            }
            return try builder.endObject(container)
        }
    }

    private static func checkNesting<Builder: JSONBuilder>(_ nesting: Int, _: Builder.Type) throws(Builder.Failure) {
        guard nesting < JSONReader.defaultMaximumNesting else {
            throw Builder.failure(
                JSONError(
                    .nestingTooDeep,
                    "JSON nested more than \(JSONReader.defaultMaximumNesting) levels deep; flatten the data.",
                    offset: 0
                )
            )
        }
    }
}
