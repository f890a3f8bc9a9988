// The body of scripts/bench-decode: a realtime star, a put and a REST PATCH body decoded to mutations the general
// way (a JSONValue of the whole document, then the write rules) and straight from their bytes (WireWrite,
// WriteRules.update(body:at:)), timed in this thread's CPU time.
import Glibc
import HearthCore
import HearthWire

/// This thread's CPU time in seconds.
func threadSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Microseconds per call of `body`, over `count` calls after as many to warm up.
func microseconds(_ count: Int, _ body: () -> Int) -> Double {
    var sink = 0
    for _ in 0..<count { sink &+= body() }
    let start = threadSeconds()
    for _ in 0..<count { sink &+= body() }
    precondition(sink != 0)
    return (threadSeconds() - start) / Double(count) * 1e6
}

/// `value` to two decimals.
func fixed(_ value: Double) -> String { "\((value * 100).rounded() / 100)" }

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000
let star =
    #"{"posts/r1-p15/starCount":{".sv":{"increment":1}},"posts/r1-p15/stars/u123":true,"#
    + #""user-posts/r1-a3/r1-p15/starCount":{".sv":{"increment":1}},"user-posts/r1-a3/r1-p15/stars/u123":true}"#
let messages = [
    (
        "realtime star, keys sorted (hearth bench)",
        #"{"d":{"a":"m","b":{"d":"# + star
            + #","o":{"a":41,"c":"bench-7f3a","s":41},"p":"/"},"r":41},"t":"d"}"#
    ),
    ("realtime star, the JS SDK's order", #"{"t":"d","d":{"r":41,"a":"m","b":{"p":"/","d":"# + star + "}}}"),
    (
        "realtime put",
        #"{"t":"d","d":{"r":7,"a":"p","b":{"p":"/rooms/r1/m1","d":{"text":"hi","at":{".sv":"timestamp"}}}}}"#
    ),
]
print("| message | general | direct | direct, kept scratch | direct ÷ general |")
print("| --- | --- | --- | --- | --- |")
for (name, message) in messages {
    let general = microseconds(count) {
        guard case .request(_, let request)? = try? WireClientMessage(decoding: message),
            let (_, mutations) = try? request.mutations()
        else { preconditionFailure("the general decoder refused \(message)") }
        return mutations.count
    }
    let direct = microseconds(count) {
        guard let write = WireWrite(decoding: message) else { preconditionFailure("declined: \(message)") }
        return write.mutations.count
    }
    // As the reactor decodes: one scratch kept for the connection's messages.
    var scratch = WireWrite.Scratch()
    let kept = microseconds(count) {
        guard case .write(let write) = WireWrite.decoding(message, reusing: &scratch) else {
            preconditionFailure("declined: \(message)")
        }
        return write.mutations.count
    }
    print(
        "| \(name) | \(fixed(general)) µs | \(fixed(direct)) µs | \(fixed(kept)) µs | \(fixed(kept / general))× |")
}
let body = Array(star.utf8)
let general = microseconds(count) {
    guard case .object(let members)? = try? JSONReader.parseValue(body),
        let mutations = try? WriteRules.update(members, at: .root)
    else { preconditionFailure("the general reader refused the PATCH body") }
    return mutations.count + members.keys.sorted().count
}
let direct = microseconds(count) {
    guard let (keys, mutations) = WriteRules.update(body: body, at: .root) else { preconditionFailure("declined") }
    return mutations.count + keys.count
}
print("| REST PATCH star body | \(fixed(general)) µs | \(fixed(direct)) µs | - | \(fixed(direct / general))× |")
