import HearthCore
import HearthTestKit
import Testing

@testable import HearthWire

/// `WriteRules.validLocation` over a path's bytes, with the limits counted as it splits, against the plain rules:
/// split on `/`, `Key(validating:)` for each segment, `.priority` only last, then `Path.checkLimits`.
@Suite struct WriteLocationBytesTests {
    /// The location the plain rules give for `text` below `base`, or nil when they refuse it.
    private static func plain(_ text: String, below base: Path, allowingPriority: Bool) -> WriteLocation? {
        var segments = text.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        let targetsPriority = allowingPriority && segments.last == ".priority"
        if targetsPriority { segments.removeLast() }
        var keys = base.keys
        for segment in segments {
            guard let key = try? Key(validating: segment) else { return nil }
            keys.append(key)
        }
        guard (try? Path.checkLimits(keys)) != nil else { return nil }
        return WriteLocation(path: Path(keys: keys), targetsPriority: targetsPriority)
    }

    /// Random paths near every limit (31 to 33 keys, keys and paths around 768 bytes), with `.priority` first,
    /// last and between, empty segments, forbidden and multi-byte characters, below bases of several depths.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func bytesGiveThePlainRulesLocation(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let segments = [
            "a", "posts", "é", "e\u{301}", ".priority", "", "a$b", "x.y", "-1", "中文", "\u{7F}", "k[", "\u{301}",
            String(repeating: "k", count: 700), String(repeating: "k", count: 768), String(repeating: "k", count: 769),
            String(repeating: "é", count: 384), String(repeating: "z", count: 23),
        ]
        let bases = [
            Path.root, Path(keys: [Key(unchecked: "base")]),
            Path(keys: Array(repeating: Key(unchecked: "b"), count: 31)),
            Path(keys: [Key(unchecked: String(repeating: "q", count: 700))]),
        ]
        var accepted = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 0...34, using: &random)
            let short = Bool.random(using: &random)
            let text = (0..<count).map { _ in
                let pick = segments[Int.random(in: 0..<(short ? 6 : segments.count), using: &random)]
                return Int.random(in: 0..<10, using: &random) == 0 ? pick + "/" : pick
            }.joined(separator: "/")
            let prefixed = Bool.random(using: &random) ? "/" + text : text
            let base = bases[Int.random(in: 0..<bases.count, using: &random)]
            for allowingPriority in [false, true] {
                let expected = Self.plain(prefixed, below: base, allowingPriority: allowingPriority)
                var bytes = prefixed
                let direct = bytes.withUTF8 {
                    WriteRules.validLocation($0, below: base, allowingPriority: allowingPriority)
                }
                #expect(direct == expected, "seed \(seed): \(prefixed) below \(base)")
                if expected != nil { accepted += 1 }
            }
        }
        #expect(accepted > 500, "seed \(seed): only \(accepted) paths accepted")
    }

    /// The overlap rule over two update keys' bytes (`segmentsContain`) against `Path.contains` of the locations
    /// they name: short keys from few segments, with empty segments, `.priority` last and keys that differ only in
    /// their bytes, so that equal, nested and sibling paths all come up.
    @Test func keyBytesOverlapAsTheirPathsDo() {
        var random = SeededRandom(seed: 7)
        let segments = ["a", "b", "é", "e\u{301}", "", ".priority"]
        var (pairs, contained, plainPairs) = (0, 0, 0)
        for _ in 0..<20000 {
            func text() -> String {
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    segments[Int.random(in: 0..<segments.count, using: &random)]
                }.joined(separator: "/")
            }
            let (outer, inner) = (text(), text())
            var (outerText, innerText) = (outer, inner)
            let outerPath = outerText.withUTF8 { WriteRules.validLocation($0, below: .root, allowingPriority: true) }
            let innerPath = innerText.withUTF8 { WriteRules.validLocation($0, below: .root, allowingPriority: true) }
            guard let outerPath, let innerPath else { continue }
            let contains = outerText.withUTF8 { outerBytes in
                innerText.withUTF8 { WriteRules.segmentsContain(outerBytes, $0) }
            }
            #expect(contains == outerPath.path.contains(innerPath.path), "\(outer) over \(inner)")
            let plainly = outerText.withUTF8 { outerBytes in
                innerText.withUTF8 { innerBytes in
                    Self.isPlain(outerBytes) && Self.isPlain(innerBytes)
                        ? WriteRules.plainlyContains(outerBytes, innerBytes) : nil
                }
            }
            #expect(plainly == nil || plainly == contains, "\(outer) over \(inner), plainly")
            if plainly != nil { plainPairs += 1 }
            pairs += 1
            if contains { contained += 1 }
        }
        #expect(pairs > 5000 && contained > 500 && plainPairs > 500, "\(pairs) pairs, \(contained) contained")
    }

    /// Whether `validLocationAndForm` calls the bytes plain.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        WriteRules.validLocationAndForm(bytes, below: .root, allowingPriority: true)?.isPlain == true
    }

    /// A location's bytes are plain exactly when they are its path's keys joined by single `/`s, with no
    /// `.priority`: below bases of several depths, the same random paths as `bytesGiveThePlainRulesLocation`'s.
    @Test func plainBytesAreTheKeysJoined() {
        var random = SeededRandom(seed: 11)
        let segments = ["a", "posts", "é", "", ".priority", "a$b", String(repeating: "k", count: 400)]
        let bases = [Path.root, Path(keys: [Key(unchecked: "base"), Key(unchecked: "b")])]
        var plain = 0
        for _ in 0..<4000 {
            let text = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                segments[Int.random(in: 0..<segments.count, using: &random)]
            }.joined(separator: "/")
            let prefixed = Bool.random(using: &random) ? "/" + text : text
            let base = bases[Int.random(in: 0..<bases.count, using: &random)]
            var bytes = prefixed
            guard
                let (location, isPlain) = bytes.withUTF8({
                    WriteRules.validLocationAndForm($0, below: base, allowingPriority: true)
                })
            else { continue }
            let added = location.path.keys.dropFirst(base.count).map(\.string)
            let joined = !added.isEmpty && !location.targetsPriority && added.joined(separator: "/") == prefixed
            #expect(isPlain == joined, "\(prefixed) below \(base)")
            if isPlain { plain += 1 }
        }
        #expect(plain > 300, "only \(plain) plain paths")
    }
}
