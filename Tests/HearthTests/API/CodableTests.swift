import Foundation
import HearthCore
import Testing

@testable import Hearth

/// `Database.Encoder` / `Decoder`, `@ServerTimestamp` and the Codable forms of the API.
@Suite struct CodableTests {
    struct Post: Codable, Equatable {
        var title: String
        var starCount: Int
        var stars: [String: Bool]
        var rating: Double?
        @ServerTimestamp var createdAt: Date?
    }

    @Test func encodesToTheDatabasesValuesAndBack() throws {
        let post = Post(title: "Notes", starCount: 2, stars: ["ada": true], rating: 4.5, createdAt: nil)
        let encoded = try #require(try Database.Encoder().encode(post) as? [String: Any])
        #expect(encoded["title"] as? String == "Notes")
        #expect(encoded["starCount"] as? Int == 2)
        #expect((encoded["stars"] as? [String: Bool]) == ["ada": true])
        #expect((encoded["createdAt"] as? [String: Any])?[".sv"] as? String == "timestamp")
        let missing = try Database.Decoder().decode(Post.self, from: ["title": "T", "starCount": 0, "stars": [:]])
        #expect(missing.createdAt == nil)
        let written = try WriteValue.make(encoded, at: .root)
        #expect(written.placeholders.count == 1)

        var stored = post
        stored.createdAt = Date(timeIntervalSince1970: 1_700_000_000.123)
        let node = try WriteValue.make(try Database.Encoder().encode(stored), at: .root).node
        #expect(node.child(Key(unchecked: "createdAt")).leafValue == .int(1_700_000_000_123))
        let snapshot = DataSnapshot(ref: try Database.unshared(url: "http://127.0.0.1:1").reference(), node: node)
        #expect(try snapshot.data(as: Post.self) == stored)
        #expect(try Database.Decoder().decode(Post.self, from: node.foundationValue ?? NSNull()) == stored)
    }

    @Test func strategiesAndMismatchesBehaveAsJSONCodersDo() throws {
        struct Event: Codable, Equatable { var startsAt: Date; var userName: String }
        let encoder = Database.Encoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let event = Event(startsAt: Date(timeIntervalSince1970: 10), userName: "ada")
        let encoded = try #require(try encoder.encode(event) as? [String: Any])
        #expect(encoded["starts_at"] as? Int == 10_000)
        #expect(encoded["user_name"] as? String == "ada")
        let decoder = Database.Decoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Event.self, from: encoded) == event)
        #expect(throws: DecodingError.self) { try Database.Decoder().decode(Event.self, from: ["user_name": 3]) }
        #expect(throws: EncodingError.self) { try Database.Encoder().encode(Double.infinity) }
        #expect(try Database.Decoder().decode(String?.self, from: NSNull()) == nil)
    }

    @Test func mutableDataReadsAndWritesCodableValues() throws {
        let block = TransactionBlock(
            { data in
                guard var post = try? data.data(as: Post.self) else { return .abort() }
                post.starCount += 1
                post.stars["bob"] = true
                try? data.setValue(from: post)
                return .success(withValue: data)
            }, location: .root)
        let start = try WriteValue.make(["title": "T", "starCount": 1, "stars": ["ada": true]], at: .root).node
        guard case .commit(let written) = block.run(start) else {
            Issue.record("the transaction aborted")
            return
        }
        #expect(written.node.child(Key(unchecked: "starCount")).leafValue == .int(2))
        #expect(written.placeholders.count == 1)
    }
}
