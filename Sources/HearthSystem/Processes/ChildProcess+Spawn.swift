import Glibc

extension ChildProcess {
    /// The `posix_spawn` call behind `ChildProcess.init`: the pipes, the descriptor plan and the signal settings.
    enum Spawn {
        /// A started child: its pid and our ends of its piped streams (input, output, error).
        struct Started {
            let identifier: pid_t
            let pipes: (ChildProcessPipe?, ChildProcessPipe?, ChildProcessPipe?)
        }

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later).
        private typealias AddCloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32)
            -> Int32

        /// Starts the child; see `ChildProcess.init`.
        static func start(
            _ executable: String, _ arguments: [String], environment: [String: String]?,
            streams: (input: Input, output: Output, error: Output)
        ) throws(ChildProcessError) -> Started {
            func failure(_ call: String, _ errorNumber: Int32) -> ChildProcessError {
                ChildProcessError(executable: executable, call: call, errorNumber: errorNumber)
            }
            // Each pipe as (child's end, our end).
            var pipes: [(child: Int32, ours: Int32)?] = [nil, nil, nil]
            var ours: [Int32] = []
            var theirs: [Int32] = []
            defer { for descriptor in theirs { _ = close(descriptor) } }
            let wanted = [streams.input == .pipe, streams.output == .pipe, streams.error == .pipe]
            for (index, isWanted) in wanted.enumerated() where isWanted {
                guard let pipe = Self.makePipe() else {
                    for descriptor in ours { _ = close(descriptor) }
                    throw failure("pipe", errno)
                }
                // A pipe's reading end is [0]; the child reads its input and writes its output and error.
                pipes[index] = index == 0 ? (pipe.0, pipe.1) : (pipe.1, pipe.0)
                ours.append(index == 0 ? pipe.1 : pipe.0)
                theirs.append(index == 0 ? pipe.0 : pipe.1)
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            switch streams.input {
            case .inherit: break
            case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .pipe: if let pipe = pipes[0] { posix_spawn_file_actions_adddup2(&actions, pipe.child, 0) }
            }
            for (index, output) in [(1, streams.output), (2, streams.error)] {
                switch output {
                case .inherit: break
                case .discard: posix_spawn_file_actions_addopen(&actions, Int32(index), "/dev/null", O_WRONLY, 0)
                case .pipe:
                    if let pipe = pipes[index] { posix_spawn_file_actions_adddup2(&actions, pipe.child, Int32(index)) }
                case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, Int32(index))
                }
            }
            let closing = Self.closeFrom(&actions, 3)
            guard closing == 0 else {
                for descriptor in ours { _ = close(descriptor) }
                throw failure("posix_spawn_file_actions_addclosefrom_np", closing)
            }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var signals = sigset_t()
            sigfillset(&signals)
            posix_spawnattr_setsigdefault(&attributes, &signals)
            sigemptyset(&signals)
            posix_spawnattr_setsigmask(&attributes, &signals)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            if streams.input == .pipe {
                // A write to a child that has ended must fail with EPIPE, not end this process.
                _ = Glibc.signal(SIGPIPE, SIG_IGN)
            }

            var identifier: pid_t = 0
            let argv = Self.cStrings([executable] + arguments)
            defer { for string in argv { free(string) } }
            let envp = environment.map { Self.cStrings($0.map { "\($0.key)=\($0.value)" }) }
            defer { for string in envp ?? [] { free(string) } }
            let result: Int32
            if let envp {
                result = posix_spawn(&identifier, executable, &actions, &attributes, argv, envp)
            } else {
                result = posix_spawn(&identifier, executable, &actions, &attributes, argv, environ)
            }
            guard result == 0 else {
                for descriptor in ours { _ = close(descriptor) }
                throw failure("posix_spawn", result)
            }
            return Started(
                identifier: identifier,
                pipes: (
                    pipes[0].map { ChildProcessPipe(descriptor: $0.ours) },
                    pipes[1].map { ChildProcessPipe(descriptor: $0.ours) },
                    pipes[2].map { ChildProcessPipe(descriptor: $0.ours) }
                ))
        }

        /// A pipe whose two ends close on exec, so no other child inherits them: (reading end, writing end); nil
        /// with `errno` set when the system refuses. (`pipe2`, which would set the flag at once, is a GNU extension
        /// Swift does not import; a child started in between still gets neither end, as every child closes all but
        /// its three standard descriptors.)
        private static func makePipe() -> (Int32, Int32)? {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { return nil }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return (descriptors[0], descriptors[1])
        }

        /// Adds "close every descriptor from `lowest` up" to `actions`: 0, or an errno value. Glibc's Swift module
        /// does not export the GNU extension that does it, so it is looked up by name; glibc before 2.34 lacks it.
        private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
            guard let library = dlopen(nil, RTLD_NOW) else { return ENOSYS }
            defer { dlclose(library) }
            guard let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
            let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
            return addCloseFrom(&actions, lowest)
        }

        /// `strings` as C strings followed by the null pointer `posix_spawn` expects; the caller frees each.
        private static func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
            strings.map { strdup($0) } + [nil]
        }
    }
}
