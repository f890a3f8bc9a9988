import Glibc

/// Runs a target over a range of a fuzzer's inputs, timing each, and reports what broke: contract violations and
/// inputs slower than the limit, each with the seed and index that replay it.
///
/// An input's time is the CPU time of the thread running it, so a machine busy with other work does not make a
/// fast input look slow; a runaway input still shows, and a real hang is the runner's watchdog's business.
public struct FuzzRun: Sendable {
    /// An input that broke the contract or took too long.
    public struct Finding: Sendable, CustomStringConvertible {
        public let target: String
        public let seed: UInt64
        public let index: Int
        public let input: [UInt8]
        /// The violation's message, or how long the input took.
        public let problem: String

        /// The command that runs this one input again.
        public var replay: String { "scripts/fuzz \(self.target) --seed \(self.seed) --index \(self.index)" }

        public var description: String {
            "\(self.target) input \(self.index) of seed \(self.seed): \(self.problem)\n  input: "
                + "\(FuzzRun.printable(self.input))\n  replay: \(self.replay)"
        }
    }

    public let target: FuzzTarget
    public let fuzzer: Fuzzer
    /// Inputs taking more CPU time than this are findings.
    public let slowLimit: Duration

    public init(target: FuzzTarget, seed: UInt64, slowLimit: Duration = .seconds(1)) {
        self.target = target
        self.fuzzer = Fuzzer(corpus: target.corpus, dictionary: target.dictionary, seed: seed)
        self.slowLimit = slowLimit
    }

    /// What a run of some inputs found.
    public struct Outcome: Sendable {
        public var findings: [Finding] = []
        /// The slowest input's CPU time.
        public var slowest = Duration.zero
        /// How many inputs got through to a value.
        public var accepted = 0

        public init() {}
    }

    /// Runs inputs `indexes`, calling `starting` before each (so a crash handler can name the input).
    public func run(_ indexes: Range<Int>, starting: (Int) -> Void = { _ in }) -> Outcome {
        var outcome = Outcome()
        for index in indexes {
            starting(index)
            let input = self.fuzzer.input(index)
            let started = Self.threadCPUTime()
            var problem: String?
            do {
                if try self.target.body(input) { outcome.accepted += 1 }
            } catch {
                problem = error.message
            }
            let elapsed = Self.threadCPUTime() - started
            outcome.slowest = max(outcome.slowest, elapsed)
            if problem == nil, elapsed > self.slowLimit { problem = "took \(elapsed), over \(self.slowLimit)" }
            if let problem {
                outcome.findings.append(
                    Finding(
                        target: self.target.name, seed: self.fuzzer.seed, index: index, input: input, problem: problem))
            }
        }
        return outcome
    }

    /// The CPU time the calling thread has used.
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// The input as text where it is printable, with other bytes escaped, cut to 600 characters.
    public static func printable(_ input: [UInt8]) -> String {
        var text = ""
        for byte in input.prefix(600) {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return input.count > 600 ? text + "… (\(input.count) bytes)" : text
    }
}
