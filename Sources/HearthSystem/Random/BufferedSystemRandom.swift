import CHearthSystem
import Glibc

/// The kernel's random numbers (`getrandom`, as `SystemRandomNumberGenerator` reads them) fetched 256 bytes at a
/// time: the same unpredictable source for a caller that draws one small number per message — a WebSocket client's
/// masking key for every frame, which RFC 6455 wants from a strong source — at one system call per 32 draws instead
/// of one per draw (a getrandom per frame was 2 % of the load generator's CPU).
///
/// A value: each holder keeps its own buffer (behind its own lock where threads share it), so no two holders ever
/// see the same bytes.
public struct BufferedSystemRandom: RandomNumberGenerator, Sendable {
    private static let count = 32
    private var words = [UInt64](repeating: 0, count: BufferedSystemRandom.count)
    private var position = BufferedSystemRandom.count

    public init() {}

    public mutating func next() -> UInt64 {
        if self.position == Self.count { self.refill() }
        defer { self.position += 1 }
        return self.words[self.position]
    }

    /// Fills the buffer with one `getrandom`; where the kernel gives fewer bytes (interrupted, or a kernel without
    /// the call), the standard library's generator fills it instead.
    private mutating func refill() {
        let length = Self.count * MemoryLayout<UInt64>.size
        let filled = self.words.withUnsafeMutableBytes { getrandom($0.baseAddress, length, 0) }
        if filled != length {
            var system = SystemRandomNumberGenerator()
            for index in self.words.indices { self.words[index] = system.next() }
        }
        self.position = 0
    }
}
