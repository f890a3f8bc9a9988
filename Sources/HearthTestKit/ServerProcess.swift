public import Foundation
public import HearthSystem

/// A `hearth serve` child process on a free loopback port with its own temporary data directory.
///
/// Tests use it for what only a real process can show: SIGKILL recovery, SIGTERM shutdown, the CLI itself. Starting
/// and stopping one waits on a dedicated thread, never on one of the cooperative pool's threads (two on a two-core
/// machine) that every in-process server of the suite runs on.
///
/// The data directory it makes is removed once the node has exited and no `ServerProcess` restarted on it (given it
/// as `dataDirectory`) is left; one given by the test stays the test's.
public final class ServerProcess {
    public let process: ChildProcess
    public let port: Int
    public let dataDirectory: String
    private let output: ChildProcessPipe
    /// Whether this node holds a lease on a data directory a `ServerProcess` made (`DataDirectoryLeases`).
    private let holdsLease: Bool

    /// Starts `hearth serve --port 0` and waits for its "listening" line, taking a slot of `StartGate.nodes` while it
    /// starts. A cluster member takes its port from elsewhere: from the file (`--config`), the command line
    /// (`--port`, as a joining node gives it), or its data directory (a node that joined earlier restarting:
    /// `choosesPort: false`).
    public init(dataDirectory: String? = nil, arguments: [String] = [], choosesPort: Bool = true) async throws {
        let directory = try dataDirectory.map(DataDirectoryLeases.take) ?? DataDirectoryLeases.make()
        self.dataDirectory = directory.path
        self.holdsLease = directory.isLeased
        let isGiven = !choosesPort || arguments.contains("--config") || arguments.contains("--port")
        let port = isGiven ? [] : ["--port", "0"]
        let path = try ServerProcess.binaryPath()
        let arguments = ["serve"] + port + ["--data", directory.path, "--log-level", "warning"] + arguments
        do {
            let started = try await StartGate.nodes.withSlot {
                try await onDedicatedThread { try Started(path, arguments) }
            }
            (self.process, self.output, self.port) = (started.process, started.output, started.port)
        } catch {
            if directory.isLeased { DataDirectoryLeases.release(directory.path) }
            throw error
        }
    }

    /// Kills the node if it still runs; once it has exited, a thread of its own gives back the data directory.
    deinit {
        self.process.signal(SIGKILL)
        guard self.holdsLease else { return }
        let (process, directory) = (self.process, self.dataDirectory)
        let ending = try? DedicatedThread.start(name: "test-server-end") {
            process.wait()
            DataDirectoryLeases.release(directory)
        }
        ending?.detach()
    }

    /// Sends a signal and waits, on a dedicated thread, for the process to exit (a node's own shutdown deadline
    /// bounds the wait).
    public func stop(signal: Int32 = SIGTERM) async {
        self.process.signal(signal)
        await self.exited()
    }

    /// Sends a signal and returns at once: for a `defer` at a test's end, which cannot wait without blocking its
    /// thread. The process finishes on its own.
    public func terminate(signal: Int32 = SIGTERM) {
        self.process.signal(signal)
    }

    /// Returns once the process has exited, waiting on a dedicated thread.
    public func exited() async {
        let process = self.process
        _ = try? await onDedicatedThread { process.wait() }
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

    /// A launched node that has printed its "listening" line (blocking: built on a dedicated thread).
    private struct Started: Sendable {
        let process: ChildProcess
        let output: ChildProcessPipe
        let port: Int

        init(_ path: String, _ arguments: [String]) throws {
            self.process = try ChildProcess(path, arguments, standardOutput: .pipe)
            guard let output = self.process.standardOutput else {
                throw TestClientError(description: "hearth started without its output pipe")
            }
            self.output = output
            let line: String?
            do {
                line = try output.readLine()
            } catch {
                // Stopped and collected before the caller gives back its data directory, which it then removes.
                self.process.signal(SIGKILL)
                self.process.wait()
                throw error
            }
            guard let text = line else {
                self.process.wait()
                throw TestClientError(description: "hearth exited before listening")
            }
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
                self.process.signal(SIGKILL)
                self.process.wait()
                throw TestClientError(description: "unexpected first line from hearth: \(text)")
            }
            self.port = port
        }
    }
}
