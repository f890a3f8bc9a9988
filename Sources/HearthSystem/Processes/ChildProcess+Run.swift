import Glibc

extension ChildProcess {
    /// A program run to its end: how it ended and what it printed.
    public struct Finished: Sendable, Hashable {
        public let termination: Termination
        /// Its standard output (with its standard error interleaved, when that went to `.standardOutput`).
        public let output: [UInt8]
        /// Its standard error, when that was `.pipe`.
        public let error: [UInt8]
    }

    /// Runs `executable` to its end, blocking the calling thread: feeds it `input` (then end-of-file), and reads its
    /// piped output and error as they come, both at once, so a child filling one pipe while we wait on the other
    /// never stalls.
    /// - Parameters:
    ///   - environment: the program's whole environment; nil: this process's.
    ///   - standardOutput: `.pipe` collects it in `Finished.output`.
    ///   - standardError: `.pipe` collects it in `Finished.error`; `.standardOutput` interleaves it with the output.
    /// - Throws: `ChildProcessError` when the program cannot be started, `SystemError` when its pipes fail.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: [UInt8] = [],
        standardOutput: Output = .pipe, standardError: Output = .pipe
    ) throws -> Finished {
        let child = try ChildProcess(
            executable, arguments, environment: environment, standardInput: input.isEmpty ? .empty : .pipe,
            standardOutput: standardOutput, standardError: standardError)
        var drain = Drain(input: input, child: child)
        try drain.run()
        return Finished(termination: child.wait(), output: drain.collected[1], error: drain.collected[2])
    }

    /// Feeds a child's input and empties its output and error with `poll`, until all three are done.
    private struct Drain {
        /// Our ends by stream number (0 input, 1 output, 2 error); nil once done or never piped.
        var pipes: [ChildProcessPipe?]
        var collected: [[UInt8]] = [[], [], []]
        var input: ArraySlice<UInt8>

        init(input: [UInt8], child: ChildProcess) {
            self.pipes = [child.standardInput, child.standardOutput, child.standardError]
            self.input = input[...]
            if let writing = self.pipes[0] {
                let descriptor = writing.fileDescriptor
                // Our end only (the child's end is its own open file): a write never blocks on a full pipe.
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            }
        }

        mutating func run() throws {
            while true {
                let open = self.pipes.indices.filter { self.pipes[$0] != nil }
                if open.isEmpty { return }
                var polled = open.map { stream in
                    pollfd(
                        fd: self.pipes[stream]?.fileDescriptor ?? -1,
                        events: Int16(stream == 0 ? POLLOUT : POLLIN), revents: 0)
                }
                let ready = poll(&polled, nfds_t(polled.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw ChildProcessPipe.failure("poll", errno)
                }
                for (slot, stream) in open.enumerated() where polled[slot].revents != 0 {
                    try stream == 0 ? self.feed() : self.empty(stream)
                }
            }
        }

        /// Writes what the input pipe takes now; closes it once all is written or the child stopped reading.
        private mutating func feed() throws {
            guard let pipe = self.pipes[0] else { return }
            let written = self.input.withUnsafeBytes { write(pipe.fileDescriptor, $0.baseAddress, $0.count) }
            let failure = written < 0 ? errno : 0
            if written > 0 { self.input = self.input.dropFirst(written) }
            if failure != 0 && failure != EAGAIN && failure != EINTR && failure != EPIPE {
                throw ChildProcessPipe.failure("write", failure)
            }
            if self.input.isEmpty || failure == EPIPE {
                pipe.close()
                self.pipes[0] = nil
            }
        }

        /// Reads what output or error has now; lets go of the pipe at end-of-file.
        private mutating func empty(_ stream: Int) throws {
            guard let pipe = self.pipes[stream] else { return }
            let chunk = try pipe.read()
            if chunk.isEmpty {
                self.pipes[stream] = nil
            } else {
                self.collected[stream] += chunk
            }
        }
    }
}
