public import Foundation

/// A `hearth-client-probe` child process (Tests/ClientProbe): an app made of the `Hearth` client library that tests
/// can SIGKILL, to show what only a killed client process shows (its onDisconnects run; its logged writes survive).
public final class ClientProbeProcess {
    public let process: Process
    private let output: Pipe

    /// Starts `hearth-client-probe <mode> <url> <argument>`.
    public init(_ mode: String, url: String, _ argument: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binaryPath())
        process.arguments = [mode, url, argument]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        self.process = process
        self.output = output
    }

    deinit {
        if self.process.isRunning { Foundation.kill(self.process.processIdentifier, SIGKILL) }
    }

    /// The probe's next line, read on a thread of its own.
    /// - Throws: `TestClientError` when the probe exits first.
    public func nextLine() async throws -> String {
        let handle = self.output.fileHandleForReading
        return try await onDedicatedThread {
            var line = [UInt8]()
            while true {
                guard let byte = handle.readData(ofLength: 1).first else {
                    throw TestClientError(description: "hearth-client-probe exited before printing a line")
                }
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            }
        }
    }

    /// Kills the probe with SIGKILL (nothing of it runs after) and waits for it to exit.
    public func kill() {
        Foundation.kill(self.process.processIdentifier, SIGKILL)
        self.process.waitUntilExit()
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
