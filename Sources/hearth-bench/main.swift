import Foundation
import HearthBench
import HearthCore

/// `hearth-bench stars|fanout …`: the load generators behind `hearth bench stars` and `hearth bench fanout` (a
/// program of its own so that the server's binary does not link the client library and Foundation's networking).
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = StarsOptions.usage + "\n" + FanoutOptions.usage
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

switch arguments.first {
case "stars" where wantsHelp:
    print(StarsOptions.usage)
case "fanout" where wantsHelp:
    print(FanoutOptions.usage)
case "stars":
    do {
        let options = try StarsOptions(arguments: Array(arguments.dropFirst()))
        let isTerminal = isatty(STDOUT_FILENO) != 0
        let report = try await StarsBenchmark.run(options, isTerminal: isTerminal) { line in
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
        exit(report.invariantsOk ? 0 : 1)
    } catch let error as BenchOptionsError {
        complain("hearth bench stars: \(error)\n\(StarsOptions.usage)")
        exit(2)
    } catch {
        complain("hearth bench stars: \(error)")
        exit(1)
    }
case "fanout":
    do {
        let options = try FanoutOptions(arguments: Array(arguments.dropFirst()))
        let report = try await FanoutBenchmark.run(options)
        print(report.text)
        try save(report.json, to: options.jsonFile)
        exit(report.isComplete ? 0 : 1)
    } catch let error as BenchOptionsError {
        complain("hearth bench fanout: \(error)\n\(FanoutOptions.usage)")
        exit(2)
    } catch {
        complain("hearth bench fanout: \(error)")
        exit(1)
    }
default:
    complain(usage)
    exit(2)
}
