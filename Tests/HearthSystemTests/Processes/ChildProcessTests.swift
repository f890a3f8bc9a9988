import Foundation
import HearthSystem
import Testing

@Suite struct ChildProcessTests {
    /// A shell command run to its end.
    private static func shell(
        _ command: String, environment: [String: String]? = nil, input: [UInt8] = [],
        standardError: ChildProcess.Output = .pipe
    ) throws -> ChildProcess.Finished {
        try ChildProcess.run(
            "/bin/sh", ["-c", command], environment: environment, input: input, standardError: standardError)
    }

    /// Polls `condition` every 10 ms for up to `seconds`.
    private static func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// A program's exit status comes back as it gave it, zero or not.
    @Test func theExitStatusComesBack() throws {
        #expect(try Self.shell("exit 0").termination == .exited(0))
        let failed = try Self.shell("exit 7").termination
        #expect(failed == .exited(7) && failed.status == 7)
    }

    /// A child ended by a signal reports that signal; `termination` is nil while it runs, without blocking.
    @Test func aSignalledChildReportsTheSignal() throws {
        for signal in [SIGTERM, SIGKILL, SIGINT] {
            let child = try ChildProcess("/bin/sleep", ["30"])
            #expect(child.isRunning && child.termination == nil)
            child.signal(signal)
            #expect(child.wait() == .signaled(signal))
            #expect(!child.isRunning && child.termination == .signaled(signal))
            // Reaped: a second signal goes nowhere and the answer stays.
            child.signal(SIGKILL)
            #expect(child.wait() == .signaled(signal))
        }
    }

    /// A child that something else in the process collected first (`waitpid` on its id) ends as `.unknown`: its
    /// waiter returns instead of spinning, and `termination` says so.
    @Test func aChildCollectedElsewhereEndsAsUnknown() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "exit 3"])
        var status: Int32 = 0
        var collected: pid_t
        repeat {
            collected = waitpid(child.identifier, &status, 0)
        } while collected < 0 && errno == EINTR
        #expect(collected == child.identifier)
        #expect(child.wait() == .unknown && child.termination == .unknown && child.wait().status == -1)
    }

    /// Megabytes on standard error before any on standard output are both read whole: neither pipe fills while
    /// the runner waits on the other.
    @Test func largeOutputAndErrorAreBothDrained() throws {
        let size = 3_000_000
        let finished = try Self.shell("head -c \(size) /dev/zero >&2; head -c \(size) /dev/zero; echo done >&2")
        #expect(finished.termination == .exited(0))
        #expect(finished.output.count == size && finished.output.allSatisfy { $0 == 0 })
        #expect(finished.error.count == size + 5 && finished.error.suffix(5) == Array("done\n".utf8))
    }

    /// Standard error sent to `.standardOutput` is interleaved with the output in one stream.
    @Test func errorCanJoinTheOutput() throws {
        let finished = try Self.shell("echo one; echo two >&2; echo three", standardError: .standardOutput)
        #expect(String(decoding: finished.output, as: UTF8.self) == "one\ntwo\nthree\n")
        #expect(finished.error.isEmpty)
    }

    /// Input larger than a pipe holds reaches the child whole while its echo is read back at the same time, and the
    /// child then sees end-of-file.
    @Test func inputIsFedWhileOutputIsRead() throws {
        let input = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let finished = try ChildProcess.run("/bin/cat", [], input: input)
        #expect(finished.termination == .exited(0))
        #expect(finished.output == input)
    }

    /// A child whose input is a pipe we write to and close reads it to end-of-file.
    @Test func aPipedInputCanBeWrittenAndClosed() throws {
        let child = try ChildProcess("/bin/cat", [], standardInput: .pipe, standardOutput: .pipe)
        let input = try #require(child.standardInput)
        let output = try #require(child.standardOutput)
        try input.write(Array("first\nsecond\n".utf8))
        #expect(try output.readLine() == "first")
        input.close()
        #expect(try output.readLine() == "second")
        #expect(try output.readLine() == nil)
        #expect(child.wait() == .exited(0))
    }

    /// A given environment is the child's whole environment; none given, it inherits ours.
    @Test func theEnvironmentIsGivenOrInherited() throws {
        let given = try Self.shell(#"echo "$HEARTH_CHILD_TEST/${HOME-unset}""#, environment: ["HEARTH_CHILD_TEST": "x"])
        #expect(String(decoding: given.output, as: UTF8.self) == "x/unset\n")
        let inherited = try Self.shell(#"echo "${PATH-unset}""#)
        #expect(
            String(decoding: inherited.output, as: UTF8.self)
                == (ProcessInfo.processInfo.environment["PATH"] ?? "unset") + "\n")
    }

    /// A missing program and a file that is no program are typed errors saying so, and start nothing.
    @Test func aProgramThatCannotStartIsATypedError() throws {
        #expect(throws: ChildProcessError(executable: "/nonexistent/hearth", reason: .notFound)) {
            try ChildProcess("/nonexistent/hearth", [])
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        try "not a program".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: ChildProcessError(executable: file, reason: .notExecutable)) {
            try ChildProcess(file, [], standardOutput: .pipe)
        }
    }

    /// The child holds none of our descriptors but its three standard ones, even one not marked close-on-exec (a
    /// listening socket kept by a child would hold its port after we closed it).
    @Test func theChildInheritsOnlyTheStandardDescriptors() throws {
        let leaked = open("/dev/null", O_RDONLY)
        try #require(leaked > 2)
        defer { close(leaked) }
        let finished = try Self.shell("ls /proc/$$/fd")
        let descriptors = String(decoding: finished.output, as: UTF8.self).split(separator: "\n")
        #expect(descriptors == ["0", "1", "2"], "\(descriptors)")
    }

    /// A child nobody waited for is reaped once it ends, so no zombie is left behind.
    @Test func aDroppedChildIsReaped() throws {
        var identifier: pid_t = 0
        do {
            let child = try ChildProcess("/bin/sh", ["-c", "sleep 0.1"])
            identifier = child.identifier
        }
        #expect(Self.eventually { kill(identifier, 0) != 0 && errno == ESRCH }, "pid \(identifier) is still there")
    }
}
