public import Foundation
import HearthSystem

/// Runs a program to completion and collects what it printed: the one way the test kit and the tests start a
/// command-line tool (`hearth cluster …`, `scripts/cluster …`) and read its answer.
public enum ProcessOutput {
    /// Runs `executable` with `arguments` (its standard input empty) and returns its exit status (or the number of
    /// the signal that ended it) and its standard output and error, interleaved. The wait happens on a dedicated
    /// thread, never on one of the cooperative pool's.
    /// - Parameters:
    ///   - environment: the program's whole environment; nil: this process's.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (status: Int32, output: String) {
        try await onDedicatedThread {
            let finished = try ChildProcess.run(
                executable.path, arguments, environment: environment, standardError: .standardOutput)
            return (finished.termination.status, String(decoding: finished.output, as: UTF8.self))
        }
    }
}
