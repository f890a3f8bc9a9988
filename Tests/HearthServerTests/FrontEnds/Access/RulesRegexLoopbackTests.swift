import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Rules with a regular expression that backtracks exponentially elsewhere are answered promptly over REST: the
/// write is refused within seconds while reads of other data keep being answered, and rules too costly for one
/// request are refused rather than left running.
@Suite struct RulesRegexLoopbackTests {
    static let secret = "p4Kd8Wn2Rt6Yq1Zx9Lm3Vb7Hc5Jf0Ga"

    static let rules = #"""
        {
          "rules": {
            ".read": true,
            "s": { ".write": true, ".validate": "newData.val().matches(/^(a|aa)+$/)" },
            "r": { ".write": true,
                   ".validate": "newData.val().replace('a', newData.val()).replace('a', newData.val()).length > 0" }
          }
        }
        """#

    /// The issue's case: `/^(a|aa)+$/` and `"aaaa…ab"` (41 characters) is refused within 2 s, a matching value is
    /// accepted, and reads made meanwhile are answered.
    @Test func theBacktrackingPatternIsAnsweredPromptly() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let admin = [("Authorization", "Bearer \(Self.secret)")]
            let put = try await node.request("PUT", "/.settings/rules.json", body: Self.rules, headers: admin)
            try #require(put.status == 200, "\(put.text)")
            let hostile = "\"" + String(repeating: "a", count: 40) + "b\""
            async let write = Self.timed { try await node.request("PUT", "/s.json", body: hostile) }
            async let read = Self.timed { try await node.request("GET", "/other.json") }
            let (written, writeSeconds) = try await write
            let (answered, readSeconds) = try await read
            #expect(written.status == 401, "\(written.text)")
            #expect(answered.status == 200)
            // Lenient bounds: the machine is shared; without the linear matcher the write never finished.
            #expect(writeSeconds < 2, "the write took \(writeSeconds) s")
            #expect(readSeconds < 2, "the read took \(readSeconds) s")
            let long = "\"" + String(repeating: "a", count: 10_000) + "b\""
            let (longWrite, longSeconds) = try await Self.timed { try await node.request("PUT", "/s.json", body: long) }
            #expect(longWrite.status == 401 && longSeconds < 5, "\(longSeconds) s")
            let good = "\"" + String(repeating: "a", count: 41) + "\""
            #expect(try await node.request("PUT", "/s.json", body: good).status == 200)
        }
    }

    /// Rules that would build a string of 10^12 bytes for one write are refused as permission denied, promptly,
    /// and counted in `/.metrics` for the operator.
    @Test func rulesTooCostlyForARequestAreRefused() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let admin = [("Authorization", "Bearer \(Self.secret)")]
            let put = try await node.request("PUT", "/.settings/rules.json", body: Self.rules, headers: admin)
            try #require(put.status == 200, "\(put.text)")
            let body = "\"" + String(repeating: "a", count: 1_000) + "\""
            let (refused, seconds) = try await Self.timed { try await node.request("PUT", "/r.json", body: body) }
            #expect(refused.status == 401 && refused.text == #"{"error":"Permission denied"}"#)
            #expect(seconds < 5, "\(seconds) s")
            #expect(try await node.request("PUT", "/r.json", body: "\"ab\"").status == 200)
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains("hearth_rules_too_costly_total 1\n"), "\(metrics)")
        }
    }

    private static func timed<T>(_ work: () async throws -> T) async throws -> (T, Double) {
        let start = Date()
        let result = try await work()
        return (result, Date().timeIntervalSince(start))
    }
}
