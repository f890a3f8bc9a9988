extension Array {
    /// Reverses the elements in place by moving them, never copying one. `reverse()` on an array swaps through
    /// copies (a retain and a release of every reference each element holds, through the element's value witnesses
    /// when it is a tuple); the buffer pointer's swap moves the bytes. Reversed, a list is taken in its order with
    /// `popLast()`, which moves each element out: how the commit thread consumes a batch's updates, a turn's answers
    /// and a flush's replies without copying any of them.
    @inlinable public mutating func reverseByMoving() {
        self.withUnsafeMutableBufferPointer { $0.reverse() }
    }
}
