import Foundation
import HearthNode
import HearthServer
import HearthTestKit
import Testing

/// Body limits, firebase-tools imports/exports, stream keep-alives and query streams, snapshots.
@Suite struct RESTLimitsAndStreamsTests {
    @Test func bodiesOverTheWriteLimitAreRejectedUnlessTheImportAsksForUnlimited() async throws {
        try await TestNode.with(configure: { $0.maximumWriteBytes = 1024 }) { node in
            let big =
                "{" + (0..<200).map { "\"k\($0)\":\"\(String(repeating: "x", count: 20))\"" }.joined(separator: ",")
                + "}"
            let rejected = try await node.request("PUT", "/.json", body: big)
            #expect(rejected.status == 400)
            #expect(rejected.text.contains("exceeds the maximum size"))
            #expect(try await node.request("GET", "/.json").text == "null")
            let imported = try await node.request(
                "PUT", "/.json?ns=imported&disableTriggers=true&writeSizeLimit=unlimited", body: big,
                headers: [("Authorization", "Bearer owner")])
            #expect(imported.status == 200)
            let exported = try await node.request("GET", "/.json?ns=imported&format=export")
            #expect(exported.text.contains("\"k199\""))
        }
    }

    @Test func writeSizeLimitTinyRefusesToReplaceALargeSubtree() async throws {
        try await TestNode.with { node in
            let chunk = String(repeating: "y", count: 100_000)
            for index in 0..<12 {
                _ = try await node.request("PUT", "/big/c\(index).json", body: "\"\(chunk)\"")
            }
            let refused = try await node.request("DELETE", "/big.json?writeSizeLimit=tiny")
            #expect(refused.status == 400)
            #expect(try await node.request("GET", "/big/c0.json").status == 200)
            #expect(try await node.request("DELETE", "/big/c0.json?writeSizeLimit=tiny").status == 200)
            #expect(try await node.request("DELETE", "/big.json?writeSizeLimit=bogus").status == 400)
        }
    }

    @Test func eventStreamsSendKeepAlives() async throws {
        try await TestNode.with(configure: { $0.keepAliveSeconds = 0.2 }) { node in
            let port = node.port
            let names = try await onDedicatedThread { () -> [String] in
                let stream = try HTTPTestClient(port: port)
                _ = try stream.request("GET", "/ka.json", headers: [("Accept", "text/event-stream")])
                return [try stream.readEvent().event, try stream.readEvent().event]
            }
            #expect(names == ["put", "keep-alive"])
        }
    }

    @Test func queryStreamsSendTheNewWindowWhenItChanges() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/scores.json", body: #"{"a":1,"b":5,"c":3}"#)
            let port = node.port
            let events = try await onDedicatedThread { () -> [String] in
                let stream = try HTTPTestClient(port: port)
                _ = try stream.request(
                    "GET", "/scores.json?orderBy=%22$value%22&limitToLast=2", headers: [("Accept", "text/event-stream")]
                )
                var data = [try stream.readEvent().data]
                let writer = try HTTPTestClient(port: port)
                _ = try writer.request("PUT", "/scores/a.json", body: "2")
                _ = try writer.request("PUT", "/scores/d.json", body: "9")
                data.append(try stream.readEvent().data)
                return data
            }
            #expect(events == [#"{"path":"/","data":{"b":5,"c":3}}"#, #"{"path":"/","data":{"b":5,"d":9}}"#])
        }
    }

    @Test func recoveryFromSnapshotPlusLogTail() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        try await TestNode.with(dataDirectory: directory, configure: { $0.snapshotEveryRecords = 5 }) { node in
            for index in 0..<23 {
                _ = try await node.request("PUT", "/snap/k\(index).json", body: "\(index)")
            }
            _ = try await node.request("PATCH", "/.json", body: #"{"x/y":1,"z/w":2}"#)
            try await Task.sleep(for: .milliseconds(300))
        }
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: directory + "/snapshots")
        #expect(snapshots.contains { $0.hasSuffix(".snap") })
        try await TestNode.with(dataDirectory: directory) { node in
            let value = try await node.request("GET", "/snap/k22.json").text
            #expect(value == "22")
            #expect(try await node.request("GET", "/x/y.json").text == "1")
            #expect(
                try await node.request("GET", "/snap.json?shallow=true").text.components(separatedBy: ":true").count
                    == 24)
        }
    }
}

/// Priorities through `.priority` paths and JSONP.
@Suite struct RESTPriorityTests {
    @Test func priorityPathsReadAndWriteOnlyThePriority() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/item.json", body: #"{"a":1}"#)
            #expect(try await node.request("PUT", "/item/.priority.json", body: "7").text == "7")
            #expect(try await node.request("GET", "/item/.priority.json").text == "7")
            #expect(try await node.request("GET", "/item.json?format=export").text == #"{"a":1,".priority":7}"#)
            #expect(try await node.request("PUT", "/item/.priority.json", body: "true").status == 400)
            _ = try await node.request("PUT", "/item.json", body: #"{"a":2}"#)
            #expect(try await node.request("GET", "/item/.priority.json").text == "null")
        }
    }

    @Test func callbackWrapsTheValueInJSONP() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/j.json", body: "1")
            let response = try await node.request("GET", "/j.json?callback=handle")
            #expect(response.text == "handle(1);")
            #expect(response.header("Content-Type")?.hasPrefix("application/javascript") == true)
        }
    }

    @Test func downloadNamesCarryNoControlCharactersOrQuotes() async throws {
        try await TestNode.with { node in
            _ = try await node.request("PUT", "/d.json", body: "1")
            let response = try await node.request("GET", "/d.json?download=a%00b%0D%0A%22c%5C.json")
            #expect(response.header("Content-Disposition") == #"attachment; filename="abc.json""#)
        }
    }
}

/// Many clients streaming one location from one node.
@Suite struct RESTManyStreamsTests {
    @Test func twoHundredStreamsAllReceiveEveryChange() async throws {
        try await TestNode.with { node in
            let port = node.port
            let received = try await onDedicatedThread { () -> [[String]] in
                var streams: [HTTPTestClient] = []
                for _ in 0..<200 {
                    let stream = try HTTPTestClient(port: port)
                    _ = try stream.request("GET", "/hub.json", headers: [("Accept", "text/event-stream")])
                    _ = try stream.readEvent()
                    streams.append(stream)
                }
                let writer = try HTTPTestClient(port: port)
                _ = try writer.request("PUT", "/hub/a.json", body: "1")
                _ = try writer.request("PUT", "/hub/b.json", body: "2")
                return try streams.map { [try $0.readEvent().data, try $0.readEvent().data] }
            }
            #expect(received.count == 200)
            #expect(received.allSatisfy { $0 == [#"{"path":"/a","data":1}"#, #"{"path":"/b","data":2}"#] })
        }
    }
}

/// Snapshots also happen on a timer, so a write-light node does not keep a long log tail.
@Suite struct PeriodicSnapshotTests {
    @Test func aQuietNodeSnapshotsOnItsTimerOnlyWhenSomethingChanged() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.path
        try await TestNode.with(
            dataDirectory: directory,
            configure: {
                $0.snapshotEveryRecords = 1_000_000
                $0.snapshotIntervalSeconds = 0.1
            }
        ) { node in
            try await Task.sleep(for: .milliseconds(300))
            let before = try FileManager.default.contentsOfDirectory(atPath: directory + "/snapshots")
            #expect(!before.contains { $0.hasSuffix(".snap") }, "nothing was written, so nothing to snapshot")
            _ = try await node.request("PUT", "/quiet.json", body: "1")
            let snapshotted = try await eventually(seconds: 2.5) {
                try FileManager.default.contentsOfDirectory(atPath: directory + "/snapshots").contains {
                    $0.hasSuffix(".snap")
                }
            }
            #expect(snapshotted)
        }
        try await TestNode.with(dataDirectory: directory) { node in
            let value = try await node.request("GET", "/quiet.json").text
            #expect(value == "1")
        }
    }
}
