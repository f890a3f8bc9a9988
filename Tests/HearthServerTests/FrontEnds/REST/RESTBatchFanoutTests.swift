import Foundation
import HearthCore
import HearthRules
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNet
@testable import HearthNode
@testable import HearthServer

/// Writes a REST writer pipelines on one connection reach listeners the way a realtime client's pipelined puts do:
/// ordered together, so each log turn's changes are told to listeners inside one `FlushBatch` and every listening
/// connection gets the turn's events in one send, not one send per event.
@Suite struct RESTBatchFanoutTests {
    /// Hears every change under `/room`, noting each change's path and whether it was told inside a `FlushBatch`.
    final class GatheringRecorder: ChangeListener {
        let namespace = NodeConfiguration().defaultNamespace
        let path = Fixture.path("room")
        let heard = Mutex<[(path: Path, gathered: Bool)]>([])

        func changed(_ change: CommittedChange) {
            let gathered = FlushBatch.current != nil
            self.heard.withLock { heard in
                for mutation in change.mutations { heard.append((mutation.path, gathered)) }
            }
        }
    }

    private static let writes = 60

    /// `PUT /room/mI.json` of a short string, for I in 0..<writes.
    private static var puts: [HTTPRequest] {
        (0..<Self.writes).map { index in
            HTTPRequest(
                method: "PUT", target: "/room/m\(index).json", path: "/room/m\(index).json", body: Array(#""x""#.utf8))
        }
    }

    /// Runs `body` with a REST front end over a fresh durable node and a recorder listening to `/room`.
    private static func withHandler(_ body: (RESTHandler, GatheringRecorder) async throws -> Void) async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Database.open(configuration: configuration, log: Log(level: .critical))
        let access = AccessControl(database: database, authenticator: Authenticator(), defaultRules: .open)
        let handler = RESTHandler(
            database: database, configuration: configuration, access: access, metrics: Metrics(),
            log: Log(level: .critical))
        let recorder = GatheringRecorder()
        _ = database.view.addListener(recorder)
        try await body(handler, recorder)
        await database.close()
    }

    /// Pipelined PUTs handed over as one batch are each answered 200, in order; the listener hears every one, in
    /// order, and most of them inside a `FlushBatch` (a change told alone is one whose log turn held nothing else).
    @Test func pipelinedPutsAreToldToListenersGathered() async throws {
        try await Self.withHandler { handler, recorder in
            let replies = await handler.handle(batch: Self.puts)
            let statuses = replies.map { reply -> Int in
                guard case .response(let response) = reply else { return 0 }
                return response.status
            }
            #expect(statuses == Array(repeating: 200, count: Self.writes))
            let heard = recorder.heard.withLock { $0 }
            #expect(heard.map(\.path) == (0..<Self.writes).map { Fixture.path("room/m\($0)") })
            let gathered = heard.filter(\.gathered).count
            #expect(gathered * 2 >= Self.writes, "only \(gathered) of \(Self.writes) changes were told gathered")
        }
    }

    /// The data's root, `/.json`, is data: pipelined PATCHes of it (the docs' star as a REST PATCH) share batches and
    /// are answered in order, every increment counted once; the node's own locations under `/.` never share one.
    @Test func rootPatchesShareBatches() async throws {
        try await Self.withHandler { handler, _ in
            #expect(handler.sharesBatches(method: "PATCH", path: "/.json", query: [], headers: HTTPHeaders()))
            #expect(
                !handler.sharesBatches(method: "PUT", path: "/.settings/rules.json", query: [], headers: HTTPHeaders()))
            let stars = 10
            let patches = (0..<stars).map { index in
                let body =
                    #"{"posts/p/stars/u\#(index)":true,"posts/p/starCount":{".sv":{"increment":1}},"#
                    + #""user-posts/a/p/stars/u\#(index)":true,"user-posts/a/p/starCount":{".sv":{"increment":1}}}"#
                return HTTPRequest(method: "PATCH", target: "/.json", path: "/.json", body: Array(body.utf8))
            }
            let replies = await handler.handle(batch: patches)
            let statuses = replies.map { reply -> Int in
                switch reply {
                case .response(let response): response.status
                case .encoded(let response): response.status
                case .stream, .upgrade: 0
                }
            }
            #expect(statuses == Array(repeating: 200, count: stars))
            let root = handler.database.root(NodeConfiguration().defaultNamespace)
            #expect(root.node(at: Fixture.path("posts/p/starCount")) == Node(.int(Int64(stars))))
            #expect(root.node(at: Fixture.path("user-posts/a/p/starCount")) == Node(.int(Int64(stars))))
            #expect(root.node(at: Fixture.path("posts/p/stars")).childCount == stars)
        }
    }

    /// The same PUTs answered one at a time each wait for the one before, so every change is told alone: the shape
    /// a batch avoids.
    @Test func putsAnsweredOneAtATimeAreEachToldAlone() async throws {
        try await Self.withHandler { handler, recorder in
            for request in Self.puts { _ = await handler.handle(request) }
            let heard = recorder.heard.withLock { $0 }
            #expect(heard.count == Self.writes && heard.allSatisfy { !$0.gathered })
        }
    }

    /// A batch's refused write is answered in its place with Firebase's error, and the writes around it apply; a
    /// GET at its end, handled after every write before it is answered, sees them all.
    @Test func aRefusedWriteInABatchFailsAloneAndAGetAtItsEndSeesTheRest() async throws {
        try await Self.withHandler { handler, _ in
            var requests = Array(Self.puts.prefix(3))
            requests.insert(
                HTTPRequest(method: "PUT", target: "/room/bad.json", path: "/room/bad.json", body: Array("{".utf8)),
                at: 1)
            requests.append(HTTPRequest(method: "GET", target: "/room.json", path: "/room.json"))
            let responses = await handler.handle(batch: requests).map { reply -> HTTPResponse in
                guard case .response(let response) = reply else { return HTTPResponse(status: 0) }
                return response
            }
            #expect(responses.map(\.status) == [200, 400, 200, 200, 200])
            #expect(String(decoding: responses[4].body, as: UTF8.self) == #"{"m0":"x","m1":"x","m2":"x"}"#)
        }
    }

    /// Over HTTP, PUTs and a GET pipelined in one send on one keep-alive connection are answered in order, each PUT
    /// with its value, and the GET sees every PUT before it.
    @Test func pipelinedPutsOnOneConnectionAreAnsweredInOrder() async throws {
        try await TestNode.with { node in
            let port = node.port
            let responses = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                var bytes = ""
                for index in 0..<20 {
                    bytes += "PUT /pipe/k\(index).json HTTP/1.1\r\nHost: h\r\n"
                    bytes += "Content-Length: \(String(index).count)\r\n\r\n\(index)"
                }
                try client.send(bytes + "GET /pipe.json HTTP/1.1\r\nHost: h\r\n\r\n")
                return try (0...20).map { _ in try client.readResponse() }
            }
            #expect(responses.map(\.status) == Array(repeating: 200, count: 21))
            #expect(responses.prefix(20).map(\.text) == (0..<20).map { "\($0)" })
            let read = try JSONSerialization.jsonObject(with: Data(responses[20].body)) as? [String: Int]
            #expect(read?.count == 20 && read?["k19"] == 19)
        }
    }

    /// A batch of plain writes is reported ordered once (its writes submitted, so the connection may take the next
    /// batch while these are answered); a batch ending with a request that shares none (a GET, which must see every
    /// write before it) is not, and its GET sees all of them.
    @Test func aBatchOfWritesIsReportedOrderedAndOneEndingWithAReadIsNot() async throws {
        try await Self.withHandler { handler, _ in
            let ordered = Mutex(0)
            let replies = await handler.handle(batch: Self.puts) { ordered.withLock { $0 += 1 } }
            #expect(ordered.withLock { $0 } == 1)
            #expect(replies.count == Self.writes)
            let read = HTTPRequest(method: "GET", target: "/room.json", path: "/room.json", body: [])
            let notOrdered = Mutex(0)
            let withRead = await handler.handle(batch: Self.puts + [read]) { notOrdered.withLock { $0 += 1 } }
            #expect(notOrdered.withLock { $0 } == 0)
            guard case .response(let response)? = withRead.last else {
                Issue.record("the GET got no plain response")
                return
            }
            #expect(
                String(decoding: response.body, as: UTF8.self).components(separatedBy: "m").count == Self.writes + 1)
        }
    }

    /// On a single node a batch of plain writes is taken at once (`handleAtOnce`): each is answered 200 by the write
    /// loop's completion and applied; a batch ending with a read is declined untouched (it goes to a task).
    @Test func aBatchOfWritesIsTakenAtOnceAndOneEndingWithAReadIsDeclined() async throws {
        try await Self.withHandler { handler, _ in
            let read = HTTPRequest(method: "GET", target: "/room.json", path: "/room.json", body: [])
            let declined = handler.handleAtOnce(batch: Self.puts + [read]) { _ in
                Issue.record("a declined batch was replied")
            }
            #expect(!declined)
            #expect(
                handler.database.root(NodeConfiguration().defaultNamespace).node(at: Fixture.path("room")).childCount
                    == 0)
            let replies = await withCheckedContinuation { (continuation: CheckedContinuation<[HTTPReply], Never>) in
                let taken = handler.handleAtOnce(batch: Self.puts) { continuation.resume(returning: $0) }
                if !taken { continuation.resume(returning: []) }
            }
            let statuses = replies.map { reply -> Int in
                guard case .response(let response) = reply else { return 0 }
                return response.status
            }
            #expect(statuses == Array(repeating: 200, count: Self.writes))
            let room = handler.database.root(NodeConfiguration().defaultNamespace).node(at: Fixture.path("room"))
            #expect(room.childCount == Self.writes)
        }
    }

    /// 2,000 root PATCHes (the docs' star) pipelined on one connection to a single node, taken at once on the
    /// reactor thread, are each answered 200 in order, and every increment is applied once.
    @Test func pipelinedPatchesTakenAtOnceAreAnsweredInOrderAndApplied() async throws {
        try await TestNode.with { node in
            let count = 2000
            let port = node.port
            let (statuses, counted) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                var burst = ""
                for index in 0..<count {
                    let body = #"{"posts/p/stars/u\#(index)":true,"posts/p/starCount":{".sv":{"increment":1}}}"#
                    burst += "PATCH /.json HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                }
                try client.send(burst + "GET /posts/p/starCount.json HTTP/1.1\r\nHost: h\r\n\r\n")
                let answers = try (0..<count).map { _ in try client.readResponse() }
                let statuses = answers.enumerated().map { index, answer in
                    answer.status == 200 && answer.text.contains("u\(index)\"") ? 200 : answer.status
                }
                return (statuses, try client.readResponse().text)
            }
            #expect(statuses == Array(repeating: 200, count: count))
            #expect(counted == "\(count)")
        }
    }

    /// 3,000 PUTs pipelined on one connection are each answered 200, in order, and a GET pipelined behind them sees
    /// every one of them.
    @Test func aLongPipelinedBurstIsAnsweredInOrderAndReadBehindIt() async throws {
        try await TestNode.with { node in
            let count = 3000
            let port = node.port
            let (statuses, last) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                var burst = ""
                for index in 0..<count {
                    burst += "PUT /burst/k\(index).json HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n\(index % 10)"
                }
                try client.send(burst + "GET /burst.json?shallow=true HTTP/1.1\r\nHost: h\r\n\r\n")
                let answers = try (0..<count).map { _ in try client.readResponse() }
                let statuses = answers.enumerated().map { index, answer in
                    answer.status == 200 && answer.text == "\(index % 10)" ? 200 : answer.status
                }
                return (statuses, try client.readResponse().text)
            }
            #expect(statuses == Array(repeating: 200, count: count))
            #expect(last.components(separatedBy: ":true").count == count + 1)
        }
    }
}
