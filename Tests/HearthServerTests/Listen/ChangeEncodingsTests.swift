import HearthCore
import Testing

@testable import HearthServer

@Suite struct ChangeEncodingsTests {
    private let room = Path(keys: [Key(unchecked: "room")])

    /// The first listener of a kind at a path renders; the others get the very same buffers, storage included.
    @Test func rendersOncePerKindAndPathAndSharesTheBytes() {
        let encodings = ChangeEncodings()
        var renders = 0
        func render(_ kind: String, _ path: Path) -> [[UInt8]] {
            encodings.value(for: ChangeEncodings.Key(kind: kind, path: path)) { () -> [[UInt8]] in
                renders += 1
                return [Array(repeating: UInt8(renders), count: 64 * 1024)]
            }
        }
        let first = render("sse", self.room)
        let second = render("sse", self.room)
        #expect(renders == 1)
        #expect(first == second)
        #expect(
            first[0].withUnsafeBufferPointer { $0.baseAddress } == second[0].withUnsafeBufferPointer { $0.baseAddress },
            "the second listener's bytes are the first's, not a copy")
        _ = render("sse-export", self.room)
        _ = render("sse", .root)
        _ = render("wire", self.room)
        #expect(renders == 4, "another kind or path renders its own")
    }
}
