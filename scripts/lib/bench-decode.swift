// The body of scripts/bench-decode: a realtime star, a put and a REST PATCH body decoded to mutations the general
// way (a JSONValue of the whole document, then the write rules) and straight from their bytes (WireWrite,
// WriteRules.update(body:at:)), and wrk's REST PATCH star read by the HTTP parser (HTTPRequestParser, whose files the
// script compiles in beside this one), timed in this thread's CPU time.
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
/// Only the rows whose name holds this text, when given, and of them only the column named (`general`, `direct` or
/// `kept`), when given: for a profile or an instruction count of one decode.
let only = CommandLine.arguments.dropFirst(2).first
let column = CommandLine.arguments.dropFirst(3).first
func runs(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

/// `microseconds(count, body)` when `name` is a column to run; NaN (printed as such) when it is not.
func timed(_ name: String, _ body: () -> Int) -> Double {
    column.map { $0 == name } ?? true ? microseconds(count, body) : .nan
}

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
for (name, message) in messages where runs(name) {
    let general = timed("general") {
        guard case .request(_, let request)? = try? WireClientMessage(decoding: message),
            let (_, mutations) = try? request.mutations()
        else { preconditionFailure("the general decoder refused \(message)") }
        return mutations.count
    }
    let direct = timed("direct") {
        guard let write = WireWrite(decoding: message) else { preconditionFailure("declined: \(message)") }
        return write.mutations.count
    }
    // As the reactor decodes: one scratch kept for the connection's messages.
    var scratch = WireWrite.Scratch()
    let kept = timed("kept") {
        guard case .write(let write) = WireWrite.decoding(message, reusing: &scratch) else {
            preconditionFailure("declined: \(message)")
        }
        return write.mutations.count
    }
    print(
        "| \(name) | \(fixed(general)) µs | \(fixed(direct)) µs | \(fixed(kept)) µs | \(fixed(kept / general))× |")
}
let body = Array(star.utf8)
if runs("REST PATCH star body") {
    let general = timed("general") {
        guard case .object(let members)? = try? JSONReader.parseValue(body),
            let mutations = try? WriteRules.update(members, at: .root)
        else { preconditionFailure("the general reader refused the PATCH body") }
        return mutations.count + members.keys.sorted().count
    }
    let direct = timed("direct") {
        guard let (keys, mutations) = WriteRules.update(body: body, at: .root) else { preconditionFailure("declined") }
        return mutations.count + keys.count
    }
    // As the REST front end reads a PATCH: one reader kept from body to body, cleared after each (`UpdateReaders`).
    var reader = WriteRules.DataReader()
    let kept = timed("kept") {
        guard let (keys, mutations) = WriteRules.update(body: body, at: .root, reusing: &reader) else {
            preconditionFailure("declined")
        }
        reader.clear()
        return mutations.count + keys.count
    }
    print(
        "| REST PATCH star body | \(fixed(general)) µs | \(fixed(direct)) µs | \(fixed(kept)) µs | \(fixed(direct / general))× |"
    )
}
// wrk's request for the REST PATCH star (`scripts/lib/star-rest.lua`: its fields in the order wrk wrote them), read
// as a connection reads it: appended, its head parsed, its body taken.
let request =
    Array(
        ("PATCH /.json HTTP/1.1\r\nContent-Type: application/json\r\nHost: 127.0.0.1:45123\r\n"
            + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
if runs("REST PATCH head") {
    var parser = HTTPRequestParser(maximumHeaderBytes: 16 * 1024)
    let parse = timed("direct") {
        parser.append(request)
        guard case .head(let head) = parser.next(), parser.acceptBody(limit: 1 << 20) == nil,
            case .body(let read) = parser.next()
        else { preconditionFailure("the parser refused the PATCH") }
        return head.method.utf8.count + read.count
    }
    print("| REST PATCH head and body, parsed | - | \(fixed(parse)) µs | - | - |")
}
