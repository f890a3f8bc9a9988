import CHearthSystem
import Testing

@testable import HearthCore

/// What a node costs on the heap: a string leaf without a priority keeps its UTF-8 bytes in its own box (one
/// allocation the size of its text plus a few words, which reads back as the string it was made from), numbers
/// beyond the inline range take 32 bytes, and a map's storage 48.
@Suite struct NodeBoxTests {
    /// The bytes malloc set aside for `object`.
    private static func allocatedBytes(_ object: AnyObject) -> Int {
        malloc_usable_size(Unmanaged.passUnretained(object).toOpaque())
    }

    static let texts = ["", "a", "user 1", "user1@example.com", String(repeating: "lorem ipsum ", count: 14), "☃🔥é"]

    @Test(arguments: Self.texts)
    func aStringLeafReadsBackAsItsString(text: String) throws {
        let node = Node(.string(text))
        guard case .string(let box) = node.representation else {
            Issue.record("a string leaf without a priority is not a StringBox")
            return
        }
        #expect(node.leafValue == .string(text))
        #expect(box.string == text)
        #expect(node.withStringLeafUTF8 { Array($0) } == Array(text.utf8))
        #expect(Self.allocatedBytes(box) <= text.utf8.count + 24 + 24, "one allocation of the text and a header")
    }

    @Test func leavesOtherThanStringsHaveNoStringBytes() {
        #expect(Node(.int(1)).withStringLeafUTF8 { _ in true } == nil)
        #expect(Node(.string("a"), priority: .int(1)).withStringLeafUTF8 { _ in true } == nil)
        #expect(Node.empty.withStringLeafUTF8 { _ in true } == nil)
    }

    @Test func numbersOutsideInlineRangeAreSmallBoxes() {
        for node in [Node(.double(1.5)), Node(.int(1_700_000_000_000))] {
            let box: AnyObject? =
                switch node.representation {
                case .double(let box): box
                case .largeInteger(let box): box
                default: nil
                }
            #expect(box.map(Self.allocatedBytes) ?? .max <= 24, "a 32-byte allocation")
        }
    }

    @Test func aMapsStorageIsFortyBytes() throws {
        let node = Node(children: ChildMap(sortedUniqueElements: [(key: Key(unchecked: "a"), node: Node(.int(1)))]))
        let storage = try #require(node.storage)
        #expect(Self.allocatedBytes(storage) <= 40, "a 48-byte allocation")
    }

    @Test func illFormedUTF8FromASnapshotIsRepairedAsStringsRepairIt() throws {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xE2, 0x82]
        let encoded = [NodeBinary.stringTag, UInt8(bytes.count)] + bytes
        let node = try encoded.withUnsafeBytes { try NodeBinary.decode($0) }
        #expect(node == Node(.string(String(decoding: bytes, as: UTF8.self))))
        #expect(node.leafValue == .string(String(decoding: bytes, as: UTF8.self)))
    }

    @Test func equalStringsInSeparateBoxesAreEqualAndHashAlike() {
        let long = String(repeating: "ab", count: 40)
        let left = Node(.string(long))
        let right = Node(.string(String(long.utf8.map { Character(Unicode.Scalar($0)) })))
        #expect(!left.isIdentical(to: right))
        #expect(left == right)
        #expect(left.hash == right.hash)
        #expect(left.hash == Node(.string(long), priority: .int(1)).withPriority(nil).hash)
        #expect(left != Node(.string(long + "c")))
    }
}
