import Synchronization

/// Whether any tree may hold a number so large that adding an increment to it needs a check.
///
/// Every double leaf is made by `Node.init(_:priority:)`, which notes one of magnitude `hugeMagnitude` or more (or
/// one that is not finite) in a flag of the process, and every tree's leaves are nodes made so: while the flag is
/// down, every number any tree holds is below `hugeMagnitude` (an integer is at most ~9.2e18), so an increment by a
/// delta below it too gives a finite sum (below 2e300, where a double ends near 1.8e308), and the write loop need
/// not read the number before the apply to refuse an overflow (`Node.apply(_:incrementing:)` adds it where it
/// writes it). The flag only ever goes up: one such number made anywhere (a write, a snapshot, a value a refused
/// write parsed) sends every increment after it the checked way, as all went before the flag.
extension Node {
    /// The magnitude from which a stored double is noted (`mayHoldHugeNumbers`).
    public static let hugeMagnitude = 1e300

    /// False while no node made in this process has held a leaf double of magnitude `hugeMagnitude` or more: then
    /// no tree holds one. A node that reached another thread through any synchronising hand-off was noted before it.
    public static var mayHoldHugeNumbers: Bool { hugeNumberNoted.load(ordering: .acquiring) }

    /// Notes `number`, about to be a leaf, when it is huge (or not a number at all).
    @inline(__always) static func noteLeaf(_ number: Double) {
        if !(abs(number) < Self.hugeMagnitude) { hugeNumberNoted.store(true, ordering: .releasing) }
    }
}

/// Up once a huge double leaf has been made (`Node.mayHoldHugeNumbers`).
private let hugeNumberNoted = Atomic<Bool>(false)
