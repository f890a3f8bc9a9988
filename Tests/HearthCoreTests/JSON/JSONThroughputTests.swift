import Foundation
import HearthCore
import HearthTestKit
import Testing

/// Parse and write throughput on a ~50 MB generated document; slow, so only with `HEARTH_SLOW_TESTS=1`.
///
/// Run once in release: `HEARTH_SLOW_TESTS=1 swift test -c release --filter JSONThroughputTests`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HEARTH_SLOW_TESTS"] == "1"))
struct JSONThroughputTests {
    /// A Firebase-shaped document: many records with short keys, strings (some escaped or non-ASCII) and numbers.
    static func makeDocument(targetBytes: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var records: [JSONKey: JSONValue] = [:]
        var estimate = 0
        var index = 0
        while estimate < targetBytes {
            var fields: [JSONKey: JSONValue] = [
                "name": .string("user \(index) \(["ada", "grace", "linus", "zoë", "日本", "tab\there"][index % 6])"),
                "age": .int(Int64.random(in: 0...120, using: &random)),
                "score": .double(Double.random(in: -1000...1000, using: &random)),
                "active": .bool(Bool.random(using: &random)),
                "tags": .array((0..<Int.random(in: 0...4, using: &random)).map { .string("tag\($0)") }),
            ]
            fields["bio"] = .string(String(repeating: "lorem ipsum ", count: Int.random(in: 1...8, using: &random)))
            fields["address"] = .object(["city": .string("Paris"), "zip": .string("7500\(index % 10)")])
            records["u\(index)"] = .object(fields)
            estimate += 212
            index += 1
        }
        return JSONValue.object(["users": .object(records)]).jsonBytes()
    }

    /// Best of three runs of `body`; results are kept alive until after timing so freeing them is not measured.
    private func measure<T>(_ label: String, bytes: Int, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        var best = Duration.seconds(1000)
        var kept: [T] = []
        for _ in 0..<3 {
            let start = clock.now
            let result = try body()
            best = min(best, clock.now - start)
            kept.append(result)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        let rate = Double(bytes) / 1_000_000 / seconds
        print("[throughput] \(label): \(bytes / 1_000_000) MB in \(Int(seconds * 1000)) ms = \(Int(rate)) MB/s")
        return kept[0]
    }

    @Test func parseAndWriteRates() throws {
        let document = Self.makeDocument(targetBytes: 50_000_000, seed: 50)
        let value = try self.measure("parse → JSONValue", bytes: document.count) {
            try JSONReader.parseValue(document)
        }
        let node = try self.measure("parse → Node (write rules)", bytes: document.count) {
            try WriteValue.parseWrite(document, depth: 0).node
        }
        let users = node.child(Key(unchecked: "users")).childCount
        #expect(users > 0 && users == value["users"].map { if case .object(let all) = $0 { all.count } else { 0 } })
        let written = self.measure("Node → JSON bytes", bytes: document.count) {
            var output: [UInt8] = []
            output.reserveCapacity(document.count)
            node.writeJSON(format: .plain, pretty: false, to: &output)
            return output
        }
        let roundTrips = try WriteValue.parseWrite(written, depth: 0).node == node
        #expect(roundTrips, "Node → JSON → Node changed the tree")
    }
}
