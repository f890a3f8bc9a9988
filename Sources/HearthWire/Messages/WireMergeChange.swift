public import HearthCore

/// One entry of a merge push: the data now at `relative` below the push's path.
public struct WireMergeChange: Sendable, Equatable {
    public var relative: Path
    public var data: WireData

    public init(relative: Path, data: WireData) {
        self.relative = relative
        self.data = data
    }
}
