import HearthTestKit

/// Seeded random realtime write messages and PATCH bodies, written as text so that member order, whitespace,
/// escapes, duplicates and broken pieces are all under the generator's control: mostly well-formed puts and merges
/// in both member orders clients use, with hostile pieces (bad keys, server value misuse, deep nesting, numbers out
/// of range, duplicate members, lone surrogates, truncation) mixed in.
struct WriteMessageGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        self.random = SeededRandom(seed: seed)
    }

    /// One message.
    mutating func message() -> String {
        var body: [(String, String)] = [
            ("p", self.pick(Self.paths)),
            ("d", self.chance(8) ? self.mergeData() : self.value(depth: 0)),
        ]
        if self.chance(6) { body.append(("h", self.pick(["null", #""abc""#, "5"]))) }
        if self.chance(6) { body.append(("o", self.pick(Self.origins))) }
        if self.chance(10) { body.append(("x", self.value(depth: 0))) }
        let action = self.chance(10) ? self.pick([#""o""#, #""q""#, #""om""#, "7"]) : self.pick([#""p""#, #""m""#])
        var request: [(String, String)] = [("r", self.pick(Self.ids)), ("a", action), ("b", self.object(body))]
        if self.chance(12) { request.append(("extra", "[1,{}]")) }
        var envelope: [(String, String)] = [
            ("t", self.chance(15) ? self.pick([#""c""#, "1", #""dd""#]) : #""d""#), ("d", self.object(request)),
        ]
        if self.chance(12) { envelope.append(("z", "null")) }
        var text = self.object(envelope)
        if self.chance(10) { text = String(text.prefix(self.int(0..<text.count))) }
        if self.chance(20) { text += self.pick(["x", " ", "}", "\n"]) }
        return text
    }

    /// One PATCH body: an object of relative paths to values, sometimes broken.
    mutating func patchBody() -> String {
        var text = self.chance(10) ? self.value(depth: 0) : self.mergeData()
        if self.chance(10) { text = String(text.prefix(self.int(0..<text.count))) }
        return text
    }

    static let paths = [
        #""/a/b""#, #""a//b/""#, #""/""#, #""""#, #""/a/.priority""#, #""/.priority/a""#, #""/a$b""#, #""/é/k""#,
        #""/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/1/2/3/4/5""#, "5", "null",
        #""/posts/-Nx1/stars/u1""#, #""\/a\u002fb""#,
    ]
    static let ids = [
        "1", "42", "1.0", "1e3", "-7", "9223372036854775807", "9223372036854775808", "1.5", #""1""#, "null",
    ]
    static let origins = [
        #"{"c":"app-1","s":3,"a":2}"#, #"{"c":"app-1","s":0,"a":0}"#, #"{"c":"","s":1,"a":0}"#, "null", "5",
        #"{"s":1,"a":0,"c":"x_y"}"#, #"{"c":"a","c":"b","s":1,"a":0}"#, #"{"c":"a","s":2.0,"a":1,"z":[]}"#,
        #"{"c":"a","s":1,"a":-1}"#, #"{"c":"a","s":1}"#, #"{"c":7,"s":1,"a":0}"#, "[]",
        #"{"c":"app-2","s":5,"a":1}"#, #"{"c":"app\u002d1","s":4,"a":4}"#,
        #"{"c":"\#(String(repeating: "k", count: 65))","s":1,"a":0}"#,
    ]
    static let keys = [
        #""a""#, #""b""#, #""c""#, #""k1""#, #""-5""#, #""10""#, #""2""#, #""é""#, #""e\u0301""#, #""\u00e9""#,
        #"".bad""#,
        #""$x""#, #""""#, #""a.b""#, #""\u0041""#, #""x\ud800""#,
    ]
    static let mergeKeys = [
        #""a""#, #""a/b""#, #""a/b/c""#, #""b/.priority""#, #"".priority""#, #""c""#, #""/d/""#, #""é/x""#, #""x#""#,
        #""e\u0301""#, #""\u00e9""#, #""n/m""#,
    ]
    static let scalars = [
        "0", "-0", "1", "-1", "1.5", "-2.25e3", "1e400", "-1e400", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "1E2", "0.1", "true", "false", "null", #""s""#, #""é\n\"\\\/""#, #""\ud83d\ude00""#,
        #""\ud800""#, #""\u0000""#, "01", "1.", ".5", "+1", "tru", "nul", #""\x""#,
    ]
    static let serverValues = [
        #"{".sv":"timestamp"}"#, #"{".sv":{"increment":5}}"#, #"{".sv":{"increment":-1.5}}"#, #"{".sv":"bogus"}"#,
        #"{".sv":{"increment":"x"}}"#, #"{".sv":{"increment":5,"x":1}}"#, #"{".sv":"timestamp","a":1}"#,
        #"{".sv":{"increment":1},".priority":2}"#, #"{".sv":[1]}"#, #"{".sv":{"increment":{}}}"#,
    ]

    /// A data value: scalars, server values, priorities, `.value`, arrays, objects, and chains deep enough to pass
    /// the depth limit.
    mutating func value(depth: Int) -> String {
        let roll = self.int(0..<20)
        if depth > 3 || roll < 7 { return self.pick(Self.scalars) }
        switch roll {
        case 7, 8: return self.pick(Self.serverValues)
        case 9:
            return self.object([(".value", self.value(depth: depth + 1)), (".priority", self.priority())])
        case 10:
            let length = self.chance(2) ? self.int(28..<36) : self.int(990..<1002)
            let key = length > 100 ? #"".value""# : #""k""#
            return String(repeating: "{\(key):", count: length) + "1" + String(repeating: "}", count: length)
        case 11, 12:
            return "[" + (0..<self.int(0..<4)).map { _ in self.value(depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            var members: [(String, String)] = []
            for _ in 0..<self.int(0..<5) {
                members.append((String(self.pick(Self.keys).dropFirst().dropLast()), self.value(depth: depth + 1)))
            }
            if self.chance(5) { members.append((".priority", self.priority())) }
            return self.object(members)
        }
    }

    /// A priority: mostly valid, sometimes not.
    mutating func priority() -> String {
        self.pick(["1", #""p""#, "null", "true", "[1]", #"{".sv":"timestamp"}"#, #"{"x":1}"#, "2.5"])
    }

    /// A merge's data: relative paths to values, sometimes overlapping or repeated.
    mutating func mergeData() -> String {
        var members: [(String, String)] = []
        for _ in 0..<self.int(0..<5) {
            members.append((String(self.pick(Self.mergeKeys).dropFirst().dropLast()), self.value(depth: 1)))
        }
        return self.object(members)
    }

    /// An object of `members` (keys as JSON string contents, values as JSON text), in a random order, with random
    /// whitespace, sometimes with a member repeated.
    mutating func object(_ members: [(String, String)]) -> String {
        var members = members
        members.shuffle(using: &self.random)
        if !members.isEmpty && self.chance(25) { members.append(self.pick(members)) }
        let parts = members.map { self.space() + "\"\($0.0)\"" + self.space() + ":" + self.space() + $0.1 }
        return "{" + parts.joined(separator: ",") + self.space() + "}"
    }

    mutating func space() -> String {
        self.chance(6) ? self.pick([" ", "\n", "\t", "\r\n  "]) : ""
    }

    mutating func chance(_ oneIn: Int) -> Bool { self.int(0..<oneIn) == 0 }

    mutating func int(_ range: Range<Int>) -> Int {
        range.isEmpty ? range.lowerBound : Int.random(in: range, using: &self.random)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[self.int(0..<items.count)] }
}
