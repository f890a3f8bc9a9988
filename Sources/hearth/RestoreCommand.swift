import Foundation
import HearthServer

/// `hearth restore --in FILE --data DIR`: makes the data directory of a fresh node from a backup file
/// (`hearth backup`), after checking the whole file; a damaged or cut-short file, or a directory that is not empty,
/// is refused and nothing is written.
enum RestoreCommand {
    /// Runs `hearth restore …`; returns 0 once the directory is ready for `hearth serve --data DIR`.
    static func run(_ arguments: [String]) throws -> Int32 {
        var remaining = arguments[...]
        var input: String?
        var data: String?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--in", "--data":
                guard let value = remaining.popFirst() else { throw UsageError("\(argument) needs a value") }
                if argument == "--in" { input = value } else { data = value }
            default: throw UsageError("unknown option '\(argument)'")
            }
        }
        guard let input else { throw UsageError("restore needs --in FILE: the backup file") }
        guard let data else { throw UsageError("restore needs --data DIR: the new node's data directory") }
        let header = try BackupRestore.restoreNode(from: input, into: data)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        print(
            BackupCommand.summary(header, file: input, bytes: bytes).replacingOccurrences(of: "wrote ", with: "read "))
        print("restored into \(data): start it with `hearth serve --data \(data)`")
        return 0
    }
}
