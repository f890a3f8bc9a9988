import Foundation
import HearthBench
import HearthCore

/// `hearth-bench stars …`: the load generator behind `hearth bench stars` (a program of its own so that the
/// server's binary does not link the client library and Foundation's networking).
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "stars" else {
    FileHandle.standardError.write(Data((StarsOptions.usage + "\n").utf8))
    exit(2)
}
if arguments.dropFirst().contains(where: { ["--help", "-h"].contains($0) }) {
    print(StarsOptions.usage)
    exit(0)
}
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
    if let file = options.jsonFile {
        try Data(report.json.jsonBytes(pretty: true)).write(to: URL(fileURLWithPath: file))
    }
    if let file = options.htmlFile {
        try Data(report.html.utf8).write(to: URL(fileURLWithPath: file))
    }
    exit(report.invariantsOk ? 0 : 1)
} catch let error as StarsOptionsError {
    FileHandle.standardError.write(Data("hearth bench stars: \(error)\n\(StarsOptions.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("hearth bench stars: \(error)\n".utf8))
    exit(1)
}
