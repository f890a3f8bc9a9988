import Foundation
public import HearthSystem

/// A `hearth-client-probe` child process (Tests/ClientProbe): an app made of the `Hearth` client library that tests
/// can SIGKILL, to show what only a killed client process shows (its onDisconnects run; its logged writes survive).
public final class ClientProbeProcess {
    public let process: ChildProcess
    private let output: ChildProcessPipe

    /// Starts `hearth-client-probe <mode> <url> <argument>`.
    public init(_ mode: String, url: String, _ argument: String) throws {
        self.process = try ChildProcess(try Self.binaryPath(), [mode, url, argument], standardOutput: .pipe)
        guard let output = self.process.standardOutput else {
            throw TestClientError(description: "hearth-client-probe started without its output pipe")
        }
        self.output = output
    }

    deinit {
        self.process.signal(SIGKILL)
    }

    /// The probe's next line, read on a thread of its own.
    /// - Throws: `TestClientError` when the probe exits first.
    public func nextLine() async throws -> String {
        let output = self.output
        return try await onDedicatedThread {
            guard let line = try output.readLine() else {
                throw TestClientError(description: "hearth-client-probe exited before printing a line")
            }
            return line
        }
    }

    /// Kills the probe with SIGKILL (nothing of it runs after) and waits, on a dedicated thread, for it to exit.
    public func kill() async {
        self.process.signal(SIGKILL)
        let process = self.process
        _ = try? await onDedicatedThread { process.wait() }
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
