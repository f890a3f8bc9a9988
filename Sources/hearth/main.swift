import Foundation
import HearthServer
import HearthStorage

/// `hearth`: the command-line entry point. Parses arguments and hands off to the server module.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "serve" where Usage.asksForHelp(arguments.dropFirst()):
        print(Usage.serve)
    case "serve":
        try await Serve.run(Array(arguments.dropFirst()))
    case "bench":
        try await Bench.run(Array(arguments.dropFirst()))
    case "cluster" where Usage.asksForHelp(arguments.dropFirst()):
        print(Usage.cluster)
    case "cluster":
        exit(try ClusterCommand.run(Array(arguments.dropFirst())))
    case "backup" where Usage.asksForHelp(arguments.dropFirst()):
        print(Usage.backup)
    case "backup":
        exit(try BackupCommand.run(Array(arguments.dropFirst())))
    case "restore" where Usage.asksForHelp(arguments.dropFirst()):
        print(Usage.restore)
    case "restore":
        exit(try await RestoreCommand.run(Array(arguments.dropFirst())))
    case "version", "--version":
        print(VersionText.text)
    case "help", "--help", "-h", nil:
        print(Usage.text)
    default:
        throw UsageError("unknown command '\(arguments[0])'")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("hearth: \(error.message)\n\(Usage.pointer(for: arguments))\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
    exit(1)
}
