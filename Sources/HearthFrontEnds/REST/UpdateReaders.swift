import HearthCore
import HearthSystem
import HearthWire

/// The readers of PATCH bodies a REST front end keeps from one update to the next, as a realtime session keeps its
/// write decoder's scratch space (`WireWrite.Scratch`): a reactor thread borrows one for a body and gives it back, so
/// reading a star makes none of a reader's arrays (members' keys, values, their order and paths) again. A few are
/// kept, about one for each thread reading at once; one more is made when none is idle.
final class UpdateReaders: Sendable {
    /// A reader lent out: a reference, so lending it and giving it back moves a pointer, not the reader's arrays.
    private final class Lent {
        var reader = WriteRules.DataReader()
    }

    /// The most idle readers kept.
    static let kept = 4

    private let idle = Lock<[Lent]>([])

    /// `WriteRules.update(body:at:)`, read with a kept reader.
    /// - Complexity: O(n + k log k) for k members in n bytes.
    func update(body: [UInt8], at base: Path) -> (keys: [String], mutations: [Mutation])? {
        let lent = self.idle.withLock { $0.popLast() } ?? Lent()
        let update = WriteRules.update(body: body, at: base, reusing: &lent.reader)
        // A kept reader holds nothing of the body it read: a huge PATCH's keys would otherwise stay with an idle
        // reader until it happens to be lent again.
        lent.reader.clear()
        self.idle.withLock { idle in
            if idle.count < Self.kept { idle.append(lent) }
        }
        return update
    }
}
