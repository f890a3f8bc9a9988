import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthFrontEnds

/// A REST path read from its bytes (`RESTRequest.location`) names what the general reading names: the `.json`
/// suffix cut by characters and the rest parsed by `WriteRules.location`, with the same 404 or 400 for a path
/// either refuses.
@Suite struct RESTRequestPathTests {
    /// The general reading, as `RESTRequest` read every path before: its location, or its error's status and text.
    static func general(_ path: String) -> String {
        guard path.hasSuffix(".json") else { return "404 \(RESTRequest.notJSON)" }
        do throws(WriteRuleError) {
            let location = try WriteRules.location(String(path.dropLast(5)), allowingPriority: true)
            return "\(location.path.keys.map(\.string)) \(location.targetsPriority)"
        } catch {
            let refusal = RESTError(error)
            return "\(refusal.status) \(refusal.message)"
        }
    }

    static func read(_ path: String) -> String {
        do throws(RESTError) {
            let location = try RESTRequest.location(path)
            return "\(location.path.keys.map(\.string)) \(location.targetsPriority)"
        } catch {
            return "\(error.status) \(error.message)"
        }
    }

    static let pieces = [
        "/", "a", "b", "/.json", ".json", "json", ".priority", ".JSON", "é", "e\u{301}", "\u{301}", "\u{600}", "$", "#",
        "[", ".", "..", "//", " ", "\r", "\n", "\r\n", "\u{7F}", "users", "ada", "-1",
        String(repeating: "k", count: 20),
    ]

    /// Paths made of pieces that meet every rule and every way to break one, ASCII or not, ending in `.json` or not.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func pathsReadFromTheirBytesNameWhatTheGeneralReadingNames(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<3_000 {
            var path = ""
            for _ in 0..<Int.random(in: 0...7, using: &random) {
                path += Self.pieces.randomElement(using: &random) ?? ""
            }
            if Int.random(in: 0..<3, using: &random) > 0 { path += ".json" }
            #expect(Self.read(path) == Self.general(path), "\(path.debugDescription)")
        }
    }

    @Test func theStarsPathAndItsNeighboursReadAsBefore() {
        let deep = "/" + (0..<40).map { "k\($0)" }.joined(separator: "/") + ".json"
        let long = "/" + String(repeating: "a", count: 800) + ".json"
        for path in [
            "/.json", "/a/b.json", "/a/.priority.json", "/.priority.json", "/a.jso", "", ".json", "/a/.json",
            "/a\u{301}.json", "/a.json\u{301}", "/\u{600}.json", deep, long, "/users/ada/.priority/x.json",
        ] {
            #expect(Self.read(path) == Self.general(path), "\(path.debugDescription)")
        }
    }
}
