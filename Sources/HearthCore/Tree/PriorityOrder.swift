/// Firebase's priority order, used by the priority index and by the node hash.
///
/// No priority sorts first, then numeric priorities ascending, then string priorities in UTF-16 order; equal
/// priorities fall back to key order.
public enum PriorityOrder {
    /// True when a child with `lhsPriority` named `lhsKey` sorts before one with `rhsPriority` named `rhsKey`.
    public static func precedes(_ lhsPriority: Priority?, _ lhsKey: Key, _ rhsPriority: Priority?, _ rhsKey: Key)
        -> Bool
    {
        let order = compare(lhsPriority, rhsPriority)
        if order != 0 { return order < 0 }
        return lhsKey < rhsKey
    }

    /// -1, 0 or 1 comparing two priorities alone.
    public static func compare(_ lhs: Priority?, _ rhs: Priority?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (left?, right?):
            switch (left.numericValue, right.numericValue) {
            case let (a?, b?): return a < b ? -1 : (a > b ? 1 : 0)
            case (.some, .none): return -1
            case (.none, .some): return 1
            case (.none, .none):
                guard case .string(let a) = left, case .string(let b) = right else { return 0 }
                if a.utf8.elementsEqual(b.utf8) { return 0 }
                return Key.utf16Precedes(a, b) ? -1 : 1
            }
        }
    }
}
