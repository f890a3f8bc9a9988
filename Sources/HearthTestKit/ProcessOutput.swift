public import Foundation

/// Runs a program to completion and collects what it printed: the one way the test kit and the tests start a
/// command-line tool (`hearth cluster …`, `scripts/cluster …`) and read its answer.
public enum ProcessOutput {
    /// Runs `executable` with `arguments` and returns its exit status and its standard output and error,
    /// interleaved. The wait happens on a dedicated thread, never on one of the cooperative pool's.
    /// - Parameters:
    ///   - environment: the program's whole environment; nil: this process's.
    ///   - directory: its working directory; nil: this process's.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil
    ) async throws -> (status: Int32, output: String) {
        try await onDedicatedThread {
            try Self.runBlocking(executable, arguments, environment: environment, directory: directory)
        }
    }

    /// `run`, blocking the calling thread until the program exits.
    private static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, directory: URL?
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: bytes, as: UTF8.self))
    }
}
