import Foundation
import HearthCore
import Testing

@testable import Hearth

/// The docs' snippets as written, run on this platform: their casts and the values they write back.
@Suite struct DocsSnippetTests {
    /// The star toggle of Firebase's docs (and docs/client.md): `[String: AnyObject]` in, `as AnyObject` values out.
    @Test func theStarToggleTransactionBodyWorksAsWritten() throws {
        let block = TransactionBlock(
            { currentData in
                guard var post = currentData.value as? [String: AnyObject] else {
                    return TransactionResult.success(withValue: currentData)
                }
                var stars = post["stars"] as? [String: Bool] ?? [:]
                var count = post["starCount"] as? Int ?? 0
                if stars["ada"] != nil {
                    count -= 1
                    stars["ada"] = nil
                } else {
                    count += 1
                    stars["ada"] = true
                }
                post["starCount"] = count as AnyObject
                post["stars"] = stars as AnyObject
                currentData.value = post
                return TransactionResult.success(withValue: currentData)
            }, location: Path(keys: [Key(unchecked: "posts"), Key(unchecked: "p1")]))
        let start = try WriteValue.make(["title": "Notes", "starCount": 2, "stars": ["bob": true]], at: .root).node
        guard case .commit(let starred) = block.run(start) else {
            Issue.record("the toggle aborted: \(String(describing: block.lastError))")
            return
        }
        let expected = try WriteValue.make(
            ["title": "Notes", "starCount": 3, "stars": ["bob": true, "ada": true]], at: .root)
        #expect(starred.node == expected.node)
        guard case .commit(let unstarred) = block.run(starred.node) else {
            Issue.record("the second toggle aborted")
            return
        }
        #expect(unstarred.node == start)
    }

    /// `.info/serverTimeOffset` read `as? TimeInterval`, `.info/connected` `as? Bool`, as the docs read them.
    @Test func infoValuesCastAsTheDocsCastThem() {
        var info = InfoData()
        info.isConnected = true
        info.serverTimeOffset = -250
        let tree = info.tree
        #expect(tree.node(at: InfoData.connectedPath).foundationValue as? Bool == true)
        #expect(tree.node(at: InfoData.serverTimeOffsetPath).foundationValue as? TimeInterval == -250)
    }
}
