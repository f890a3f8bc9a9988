import HearthSystem
import Testing

/// Reversing by moving (how the commit thread takes a list in order with `popLast()`) gives what `reverse()` gives.
@Suite struct ArrayReverseByMovingTests {
    private final class Box: Sendable {
        let value: Int

        init(_ value: Int) {
            self.value = value
        }
    }

    /// Lists of 0 to 9 elements of references, strings and tuples come out as `reverse()` leaves them, and popping
    /// them afterwards yields the original order; every reference is still held exactly once by the list.
    @Test func reversesAsReverseDoes() {
        for count in 0..<10 {
            var boxes = (0..<count).map { (box: Box($0), name: "element \($0)", index: $0) }
            var expected = boxes
            expected.reverse()
            boxes.reverseByMoving()
            #expect(boxes.map(\.box.value) == expected.map(\.box.value))
            #expect(boxes.map(\.name) == expected.map(\.name))
            expected = []
            for index in boxes.indices { #expect(isKnownUniquelyReferenced(&boxes[index].box)) }
            var taken: [Int] = []
            while let (box, _, index) = boxes.popLast() {
                #expect(box.value == index)
                taken.append(index)
            }
            #expect(taken == Array(0..<count))
        }
    }
}
