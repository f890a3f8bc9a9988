import HearthSystem
import Synchronization

/// A one-way switch tasks and threads share: load generators stop when a test sets it.
public final class Flag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { self.flag.load(ordering: .relaxed) }

    public func set() { self.flag.store(true, ordering: .relaxed) }
}
