public import Foundation

/// A `hearth serve` child process on a free loopback port with its own temporary data directory.
///
/// Tests use it for what only a real process can show: SIGKILL recovery, SIGTERM shutdown, the CLI itself.
public final class ServerProcess {
    public let process: Process
    public let port: Int
    public let dataDirectory: String
    private let output: Pipe

    /// Starts `hearth serve --port 0` and waits for its "listening" line. A cluster member takes its port from
    /// elsewhere: from the file (`--config`), the command line (`--port`, as a joining node gives it), or its data
    /// directory (a node that joined earlier restarting: `choosesPort: false`).
    public init(dataDirectory: String? = nil, arguments: [String] = [], choosesPort: Bool = true) throws {
        let directory = try dataDirectory ?? TemporaryDirectory("hearth-process").path
        self.dataDirectory = directory
        let isGiven = !choosesPort || arguments.contains("--config") || arguments.contains("--port")
        let port = isGiven ? [] : ["--port", "0"]
        (self.process, self.output) = try PipedProcess.launch(
            try ServerProcess.binaryPath(),
            ["serve"] + port + ["--data", directory, "--log-level", "warning"] + arguments)
        guard let text = PipedProcess.readLine(self.output.fileHandleForReading) else {
            throw TestClientError(description: "hearth exited before listening")
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
            throw TestClientError(description: "unexpected first line from hearth: \(text)")
        }
        self.port = port
    }

    deinit {
        if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
    }

    /// Sends a signal and waits for the process to exit (a node's own shutdown deadline bounds the wait).
    public func stop(signal: Int32 = SIGTERM) {
        kill(self.process.processIdentifier, signal)
        self.process.waitUntilExit()
    }

    /// The built `hearth` binary: `$HEARTH_BINARY`, else `.build/debug/hearth` next to this package.
    public static func binaryPath() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["HEARTH_BINARY"] { return explicit }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(".build/debug/hearth").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw TestClientError(description: "hearth binary not found; run `swift build` or set HEARTH_BINARY")
    }
}
