import Foundation
import HearthCore
import Testing

@testable import Hearth

/// `updateChildValues`' paths and `Database` URLs.
@Suite struct ChildValuesTests {
    private let base = Path(keys: [Key(unchecked: "users")])

    @Test func normalisesSlashesAndChecksEveryValue() throws {
        let entries = try ChildValues.parse(["/ada/name/": "Ada", "bob//age": 3], at: self.base)
        #expect(entries.map(\.relative.slashless) == ["ada/name", "bob/age"])
        #expect(throws: DatabaseValueError.self) { try ChildValues.parse(["ada": Date()], at: self.base) }
        #expect(throws: DatabaseValueError.self) { try ChildValues.parse(["a$b": 1], at: self.base) }
        #expect(throws: DatabaseValueError.self) { try ChildValues.parse([1: 1], at: self.base) }
        #expect(throws: DatabaseValueError.self) { try ChildValues.parse([".info/x": 1], at: .root) }
    }

    @Test func refusesAPathInsideAnother() {
        do {
            _ = try ChildValues.parse(["a/b": 1, "a": ["c": 2], "z": 3], at: self.base)
            Issue.record("an ancestor was accepted")
        } catch {
            #expect(error.message == "(updateChildValues) Invalid path in object. Path (a) is an ancestor of (a/b).")
        }
    }

    @Test func databaseURLsNameTheNodesAndTheNamespace() throws {
        let local = try DatabaseLocation(parsing: "http://127.0.0.1:9000?ns=demo")
        #expect(local.namespace == "demo")
        #expect(local.endpoints == [RealtimeEndpoint(host: "127.0.0.1", port: 9000)])
        #expect(local.url(of: Path(keys: [Key(unchecked: "a b")])) == "http://127.0.0.1:9000/a%20b?ns=demo")
        let hosted = try DatabaseLocation(parsing: "https://chat-app.example.com")
        #expect(hosted.namespace == "chat-app")
        #expect(hosted.endpoints == [RealtimeEndpoint(host: "chat-app.example.com", port: 443, isSecure: true)])
        #expect(hosted.url(of: .root) == "https://chat-app.example.com:443/")
        #expect(try DatabaseLocation(parsing: "http://localhost:9000").namespace == "default")
        #expect(throws: DatabaseValueError.self) { try DatabaseLocation(parsing: "ftp://x") }
        #expect(throws: DatabaseValueError.self) { try DatabaseLocation(parsing: "http://x:1?ns=a.b") }
        #expect(throws: DatabaseValueError.self) {
            try DatabaseLocation(urls: ["http://127.0.0.1:1?ns=a", "http://127.0.0.1:2?ns=b"])
        }
        let cluster = try DatabaseLocation(urls: ["http://127.0.0.1:1?ns=a", "http://127.0.0.1:2?ns=a"])
        #expect(cluster.endpoints.count == 2)
    }

    @Test func mutableDataChildrenShareTheTreeAndBadValuesAbort() throws {
        let block = TransactionBlock(
            { data in
                data.childData(byAppendingPath: "stars/ada").value = true
                let count = (data.childData(byAppendingPath: "count").value as? Int) ?? 0
                data.childData(byAppendingPath: "count").value = count + 1
                return TransactionResult.success(withValue: data)
            }, location: Path(keys: [Key(unchecked: "post")]))
        let start = try WriteValue.make(["count": 4], at: .root).node
        guard case .commit(let written) = block.run(start) else {
            Issue.record("the transaction aborted")
            return
        }
        #expect(written.node == (try WriteValue.make(["count": 5, "stars": ["ada": true]], at: .root).node))
        let bad = TransactionBlock(
            { data in
                data.value = ["when": Date()]
                return TransactionResult.success(withValue: data)
            }, location: .root)
        guard case .abort = bad.run(start) else {
            Issue.record("a Date was committed")
            return
        }
        #expect(bad.lastError != nil)
    }
}
