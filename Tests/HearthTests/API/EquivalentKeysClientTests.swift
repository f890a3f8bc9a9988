import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import Hearth

/// Keys that differ only in their Unicode normalisation (`"é"`, U+00E9, and `"e\u{301}"`) through the Swift
/// client against a real node: two children, written, heard and read back on their own.
@Suite(.serialized, .timeLimit(.minutes(2))) struct EquivalentKeysClientTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    /// Another client hears a child added for each key, reads both back in Firebase's order (`e` before `é`), and
    /// a write to one leaves the other alone; only the snapshot's `[String: Any]` value holds one entry for both.
    @Test func bothKeysRoundTripThroughTheClient() async throws {
        let harness = try await APIHarness()
        defer { harness.terminate() }
        let writer = try harness.client().reference(withPath: "n")
        let reader = try harness.client().reference(withPath: "n")
        let added = Received<[UInt8]>()
        let changed = Received<[UInt8]>()
        reader.observe(.childAdded) { added.append(Array($0.key.utf8)) }
        reader.observe(.childChanged) { changed.append(Array($0.key.utf8)) }
        try await writer.child(Self.composed).setValue(1)
        try await writer.child(Self.decomposed).setValue(2)
        #expect(await eventually(seconds: 30) { added.all.count == 2 })
        #expect(added.all == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)])

        try await writer.updateChildValues([Self.composed: 3])
        #expect(await eventually(seconds: 30) { changed.all == [Array(Self.composed.utf8)] })
        let read = try await reader.getData()
        #expect(read.childrenCount == 2)
        let keys = read.children.allObjects.compactMap { ($0 as? DataSnapshot).map { Array($0.key.utf8) } }
        #expect(keys == [Array(Self.decomposed.utf8), Array(Self.composed.utf8)])
        #expect(read.childSnapshot(forPath: Self.composed).value as? Int == 3)
        #expect(read.childSnapshot(forPath: Self.decomposed).value as? Int == 2)
        // A `[String: Any]` cannot hold both (Swift's `String` keys are equal); it keeps the later's value.
        let dictionary = try #require(read.value as? [String: Any])
        #expect(dictionary.count == 1 && dictionary[Self.composed] as? Int == 3)
        #expect(
            Array(String(decoding: read.node.jsonBytes(), as: UTF8.self).utf8)
                == Array(#"{"e\#u{301}":2,"\#u{E9}":3}"#.utf8))
    }
}
