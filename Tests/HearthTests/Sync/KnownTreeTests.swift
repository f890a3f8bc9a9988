import HearthCore
import Testing

@testable import Hearth

@Suite struct KnownTreeTests {
    @Test func nothingIsKnownAtFirst() throws {
        let tree = KnownTree.unknown
        #expect(!tree.isComplete(at: .root))
        #expect(!tree.isComplete(at: try SyncFixtures.path("a")))
    }

    /// A location set wholly is complete, and so is everything below it; its parent is not.
    @Test func settingMarksTheLocationAndBelowComplete() throws {
        var tree = KnownTree.unknown
        tree.set(try SyncFixtures.node(#"{"x": 1}"#), at: try SyncFixtures.path("a/b"))
        #expect(tree.isComplete(at: try SyncFixtures.path("a/b")))
        #expect(tree.isComplete(at: try SyncFixtures.path("a/b/x/y")))
        #expect(!tree.isComplete(at: try SyncFixtures.path("a")))
        #expect(tree.subtree(at: try SyncFixtures.path("a/b")) == .complete(try SyncFixtures.node(#"{"x": 1}"#)))
    }

    /// A partially known location shows only the children known wholly: a child known in part is left out.
    @Test func completeChildrenLeavesPartlyKnownChildrenOut() throws {
        var tree = KnownTree.unknown
        tree.set(SyncFixtures.int(1), at: try SyncFixtures.path("a"))
        tree.set(SyncFixtures.int(2), at: try SyncFixtures.path("b/deep"))
        #expect(tree.completeChildren == (try SyncFixtures.node(#"{"a": 1}"#)))
    }

    /// A child known to be empty is complete but shows as absent.
    @Test func aChildKnownEmptyIsAbsent() throws {
        var tree = KnownTree.unknown
        tree.set(.empty, at: try SyncFixtures.path("a"))
        #expect(tree.isComplete(at: try SyncFixtures.path("a")))
        #expect(tree.completeChildren.isEmpty)
    }

    @Test func replacingKeepsOtherLocations() throws {
        var tree = KnownTree.unknown
        tree.set(SyncFixtures.int(1), at: try SyncFixtures.path("a"))
        var other = KnownTree.unknown
        other.set(SyncFixtures.int(2), at: try SyncFixtures.path("x"))
        tree.replace(at: try SyncFixtures.path("b"), with: other)
        #expect(tree.node == (try SyncFixtures.node(#"{"a": 1, "b": {"x": 2}}"#)))
        #expect(tree.isComplete(at: try SyncFixtures.path("b/x")))
        #expect(!tree.isComplete(at: try SyncFixtures.path("b")))
    }
}
