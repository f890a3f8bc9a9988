public import Foundation

/// A `hearth serve` child process on a free loopback port with its own temporary data directory.
///
/// Tests use it for what only a real process can show: SIGKILL recovery, SIGTERM shutdown, the CLI itself. Starting
/// and stopping one waits on a dedicated thread, never on one of the cooperative pool's threads (two on a two-core
/// machine) that every in-process server of the suite runs on.
public final class ServerProcess {
    public let process: Process
    public let port: Int
    public let dataDirectory: String
    private let output: Pipe

    /// Starts `hearth serve --port 0` and waits for its "listening" line, taking a slot of `StartGate.nodes` while it
    /// starts. A cluster member takes its port from elsewhere: from the file (`--config`), the command line
    /// (`--port`, as a joining node gives it), or its data directory (a node that joined earlier restarting:
    /// `choosesPort: false`).
    public init(dataDirectory: String? = nil, arguments: [String] = [], choosesPort: Bool = true) async throws {
        let directory = try dataDirectory ?? TemporaryDirectory("hearth-process").path
        self.dataDirectory = directory
        let isGiven = !choosesPort || arguments.contains("--config") || arguments.contains("--port")
        let port = isGiven ? [] : ["--port", "0"]
        let path = try ServerProcess.binaryPath()
        let arguments = ["serve"] + port + ["--data", directory, "--log-level", "warning"] + arguments
        let started = try await StartGate.nodes.withSlot {
            try await onDedicatedThread { try Started(path, arguments) }
        }
        (self.process, self.output, self.port) = (started.process, started.output, started.port)
    }

    deinit {
        if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
    }

    /// Sends a signal and waits, on a dedicated thread, for the process to exit (a node's own shutdown deadline
    /// bounds the wait).
    public func stop(signal: Int32 = SIGTERM) async {
        kill(self.process.processIdentifier, signal)
        await self.exited()
    }

    /// Sends a signal and returns at once: for a `defer` at a test's end, which cannot wait without blocking its
    /// thread. The process finishes on its own.
    public func terminate(signal: Int32 = SIGTERM) {
        kill(self.process.processIdentifier, signal)
    }

    /// Returns once the process has exited, waiting on a dedicated thread.
    public func exited() async {
        let process = self.process
        _ = try? await onDedicatedThread { process.waitUntilExit() }
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

    /// A launched node that has printed its "listening" line (blocking: built on a dedicated thread). Unchecked
    /// sendable: the thread that builds it hands it over once and keeps nothing of it.
    private struct Started: @unchecked Sendable {
        let process: Process
        let output: Pipe
        let port: Int

        init(_ path: String, _ arguments: [String]) throws {
            (self.process, self.output) = try PipedProcess.launch(path, arguments)
            guard let text = PipedProcess.readLine(self.output.fileHandleForReading) else {
                throw TestClientError(description: "hearth exited before listening")
            }
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
                kill(self.process.processIdentifier, SIGKILL)
                throw TestClientError(description: "unexpected first line from hearth: \(text)")
            }
            self.port = port
        }
    }
}
