import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthFrontEnds

/// A PATCH body read with a kept reader (`UpdateReaders`) gives what a fresh reader gives
/// (`WriteRules.update(body:at:)`), whatever the bodies read before it: accepted, declined, larger than the space
/// a reader keeps.
@Suite struct RESTUpdateReadersTests {
    /// Bodies in an order that has every kind follow every other: stars, a nested value, broken JSON, duplicate
    /// keys, overlapping paths, a non-object, an empty object, and one with more members and key bytes than a
    /// reader keeps.
    private static let bodies: [String] = {
        let star =
            #"{"posts/p1/stars/u1":true,"posts/p1/starCount":{".sv":{"increment":1}},"#
            + #""user-posts/a1/p1/stars/u1":true,"user-posts/a1/p1/starCount":{".sv":{"increment":1}}}"#
        let large =
            "{"
            + (0..<40).map { #""k\#($0)-\#(String(repeating: "x", count: 40))":\#($0)"# }
            .joined(separator: ",") + "}"
        return [
            star, #"{"a":{"b":[1,2,{"c":null}]},"d":"e"}"#, #"{"a":1,"#, #"{"a":1,"a":2}"#, #"{"a":1,"a/b":2}"#,
            "[1,2]", "{}", large, star, #"{"x/.priority":3,"y":{".value":1,".priority":2}}"#, #"{"bad.key":1}"#,
            #"{"z":1}"#,
        ]
    }()

    /// Every body, read after every other with one kept reader, gives the fresh reader's keys and mutations (or
    /// declines as it does).
    @Test func aKeptReaderReadsAsAFreshOne() throws {
        let readers = UpdateReaders()
        let base = try Path(validating: "/root")
        // Both kinds are read: the stars, the nested value and the large body are accepted, the broken ones declined.
        let accepted = Self.bodies.filter { WriteRules.update(body: Array($0.utf8), at: base) != nil }
        #expect(accepted.count >= 5 && accepted.count <= Self.bodies.count - 4)
        for first in Self.bodies {
            for second in Self.bodies {
                for body in [first, second] {
                    let kept = readers.update(body: Array(body.utf8), at: base)
                    let fresh = WriteRules.update(body: Array(body.utf8), at: base)
                    #expect(kept?.keys == fresh?.keys, "\(first) then \(body)")
                    #expect(
                        kept?.mutations.map(WriteDecoderDifferential.MutationSummary.init)
                            == fresh?.mutations.map(WriteDecoderDifferential.MutationSummary.init),
                        "\(first) then \(body)")
                }
            }
        }
    }
}
