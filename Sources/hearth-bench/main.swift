import Foundation
import HearthBench
import HearthCore

/// `hearth-bench stars|fanout …`: the load generators behind `hearth bench stars` and `hearth bench fanout` (a
/// program of its own so that the server's binary does not link the client library and Foundation's networking).
let arguments = Array(CommandLine.arguments.dropFirst())
let wantsHelp = arguments.dropFirst().contains { ["--help", "-h"].contains($0) }

/// Writes `text` and a newline to standard error.
func complain(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes `json` to `file`, if one was named.
func save(_ json: JSONValue, to file: String?) throws {
    guard let file else { return }
    try Data(json.jsonBytes(pretty: true)).write(to: URL(fileURLWithPath: file))
}

/// Runs load generator `name` and exits with its status: 0 when `body` says every check passed, 1 when one failed
/// or the run could not be made, 2 for a command line it cannot take (with one line pointing to its `--help`, so
/// that the error stays on screen).
func run(_ name: String, _ body: () async throws -> Bool) async -> Never {
    do {
        exit(try await body() ? 0 : 1)
    } catch let error as BenchOptionsError {
        complain("hearth bench \(name): \(error)\nrun `hearth bench \(name) --help` for its options")
        exit(2)
    } catch {
        complain("hearth bench \(name): \(error)")
        exit(1)
    }
}

switch arguments.first {
case "stars" where wantsHelp:
    print(StarsOptions.usage)
case "fanout" where wantsHelp:
    print(FanoutOptions.usage)
case "stars":
    await run("stars") {
        let options = try StarsOptions(arguments: Array(arguments.dropFirst()))
        let isTerminal = isatty(STDOUT_FILENO) != 0
        let report = try await StarsBenchmark.run(options, isTerminal: isTerminal, announce: { print($0) }) { line in
            if isTerminal {
                FileHandle.standardOutput.write(Data(line.utf8))
            } else {
                print(line)
            }
        }
        if isTerminal { print("") }
        print(report.text)
        try save(report.json, to: options.jsonFile)
        if let file = options.htmlFile {
            try Data(report.html.utf8).write(to: URL(fileURLWithPath: file))
        }
        return report.invariantsOk
    }
case "fanout":
    await run("fanout") {
        let options = try FanoutOptions(arguments: Array(arguments.dropFirst()))
        let report = try await FanoutBenchmark.run(options)
        print(report.text)
        try save(report.json, to: options.jsonFile)
        return report.isComplete
    }
default:
    complain(
        "usage: hearth-bench stars|fanout [options]; `hearth bench stars --help` and `hearth bench fanout --help` "
            + "list them")
    exit(2)
}
