public import HearthCore

extension RuleValue {
    /// A read's query as rules see it (`query.orderByChild`, `query.limitToFirst`, …): each ordering a boolean
    /// (`orderByChild` the child's path or `null`), each bound and limit its value or `null`. A plain read, with no
    /// ordering, range or limit, orders by nothing.
    public init(query: QuerySpec) {
        var members: [JSONKey: RuleValue] = [
            "orderByKey": .bool(false), "orderByValue": .bool(false), "orderByPriority": .bool(false),
            "orderByChild": .null, "startAt": .null, "endAt": .null, "equalTo": .null, "limitToFirst": .null,
            "limitToLast": .null,
        ]
        if !query.isDefault {
            switch query.index {
            case .key: members["orderByKey"] = .bool(true)
            case .value: members["orderByValue"] = .bool(true)
            case .priority: members["orderByPriority"] = .bool(true)
            case .child(let path): members["orderByChild"] = .string(path.keys.map(\.string).joined(separator: "/"))
            }
        }
        let start = query.start.map { Self.bound($0) }
        let end = query.end.map { Self.bound($0) }
        if let start, start == end, query.start?.inclusive == true, query.end?.inclusive == true {
            members["equalTo"] = start
        } else {
            if let start { members["startAt"] = start }
            if let end { members["endAt"] = end }
        }
        if let limit = query.limit {
            members[limit.anchor == .first ? "limitToFirst" : "limitToLast"] = .number(Double(limit.count))
        }
        self = .object(members)
    }

    private static func bound(_ bound: QueryBound) -> RuleValue {
        bound.value.map { RuleValue(leaf: $0) } ?? .null
    }
}
