public import HearthTestKit

/// Every input surface a client or a peer can reach, as a fuzz target: the CI suite (`FuzzTargetTests`) runs each
/// for a fixed budget and `scripts/fuzz` for millions of inputs in `hearth-fuzz`.
public enum FuzzTargets {
    /// The targets, by name.
    public static let all: [FuzzTarget] = [
        Self.http, Self.query, Self.longPoll, Self.webSocket, Self.realtime, Self.json, Self.rules, Self.ruleExpression,
        Self.ruleRegex,
        Self.token, Self.peerFrames, Self.peerPayloads, Self.simulate,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        Self.all.first { $0.name == name }
    }

    /// `input` cut into pieces at places chosen from its own bytes (so a run replays), for checking that a
    /// streaming decoder's output does not depend on how its input arrives. O(n).
    static func pieces(_ input: [UInt8]) -> [ArraySlice<UInt8>] {
        var random = SeededRandom(seed: UInt64(input.count) &* 31 &+ UInt64(input.first ?? 0))
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < input.count {
            let length = Bool.random(using: &random) ? 1 : Int.random(in: 1...64, using: &random)
            let end = min(start + length, input.count)
            pieces.append(input[start..<end])
            start = end
        }
        return pieces
    }

    /// The input as UTF-8 text, invalid sequences replaced, as a server's text decoders receive strings.
    static func text(_ input: [UInt8]) -> String {
        String(decoding: input, as: UTF8.self)
    }
}
