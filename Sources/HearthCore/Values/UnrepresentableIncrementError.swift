/// A write whose `{".sv": {"increment": n}}` would leave a number no value can hold (its sum overflows past
/// ±1.8e308 to infinity): the whole write is refused and nothing changes.
public struct UnrepresentableIncrementError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The location of the increment, from the database root.
    public var path: Path

    public init(path: Path) {
        self.path = path
    }

    public var description: String {
        "Invalid data; the increment at \(self.path) would overflow the largest number a value can hold, so "
            + "nothing was written."
    }
}
