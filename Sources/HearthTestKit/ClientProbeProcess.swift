public import Foundation

/// A `hearth-client-probe` child process (Tests/ClientProbe): an app made of the `Hearth` client library that tests
/// can SIGKILL, to show what only a killed client process shows (its onDisconnects run; its logged writes survive).
public final class ClientProbeProcess {
    public let process: Process
    private let output: Pipe

    /// Starts `hearth-client-probe <mode> <url> <argument>`.
    public init(_ mode: String, url: String, _ argument: String) throws {
        (self.process, self.output) = try PipedProcess.launch(try Self.binaryPath(), [mode, url, argument])
    }

    deinit {
        if self.process.isRunning { Foundation.kill(self.process.processIdentifier, SIGKILL) }
    }

    /// The probe's next line, read on a thread of its own.
    /// - Throws: `TestClientError` when the probe exits first.
    public func nextLine() async throws -> String {
        let handle = self.output.fileHandleForReading
        return try await onDedicatedThread {
            guard let line = PipedProcess.readLine(handle) else {
                throw TestClientError(description: "hearth-client-probe exited before printing a line")
            }
            return line
        }
    }

    /// Kills the probe with SIGKILL (nothing of it runs after) and waits, on a dedicated thread, for it to exit.
    public func kill() async {
        Foundation.kill(self.process.processIdentifier, SIGKILL)
        let process = self.process
        _ = try? await onDedicatedThread { process.waitUntilExit() }
    }

    /// The built probe: next to the `hearth` binary the tests run (`ServerProcess.binaryPath()`).
    public static func binaryPath() throws -> String {
        let path = URL(fileURLWithPath: try ServerProcess.binaryPath()).deletingLastPathComponent()
            .appendingPathComponent("hearth-client-probe").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestClientError(description: "hearth-client-probe not found at \(path); run `swift build`")
        }
        return path
    }
}
