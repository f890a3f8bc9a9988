// hearth-fuzz: runs fuzz targets (HearthFuzzTargets) for many inputs in a process of its own, since a crash ends
// the process. `scripts/fuzz` builds it optimised and runs it once per target, reporting peak RSS.
//
//   hearth-fuzz --list                                   the targets
//   hearth-fuzz TARGET… [--inputs N] [--seed S] [--from I] [--findings DIR] [--slow-ms M] [--hang-seconds H]
//   hearth-fuzz TARGET --seed S --index I                replays one input (prints it; a crash shows its stack)
//
// Exit status: 0 clean, 1 findings (violations or inputs over --slow-ms, written to DIR), 2 usage, 3 a hang
// (one input running past --hang-seconds); a crash is the signal's status, after a line naming the input.
import Foundation
import HearthFuzzTargets
import HearthTestKit
import Synchronization

/// The input being run, for the crash handler and the watchdog (-1 between inputs).
let currentIndex = Atomic<Int>(-1)
/// When the current input started, in nanoseconds of the monotonic clock.
let currentStart = Atomic<UInt64>(0)

/// Prints a line at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes the line naming the crashing input, then lets the signal end the process as it would have.
func installCrashHandler() {
    for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
        signal(signalNumber) { received in
            var digits: [UInt8] = Array("\nhearth-fuzz: crashed on input ".utf8)
            let index = currentIndex.load(ordering: .relaxed)
            digits.append(contentsOf: Array(String(index).utf8) + [10])
            _ = digits.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            signal(received, SIG_DFL)
            raise(received)
        }
    }
}

/// Ends the process when one input runs longer than `limit` seconds: a hang cannot be waited out.
func startWatchdog(limit: Double, target: String, seed: UInt64) {
    let thread = Thread {
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            let index = currentIndex.load(ordering: .relaxed)
            guard index >= 0 else { continue }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- currentStart.load(ordering: .relaxed)) / 1e9
            if elapsed > limit, currentIndex.load(ordering: .relaxed) == index {
                say("hearth-fuzz: HANG: \(target) input \(index) of seed \(seed) still running after \(Int(elapsed)) s")
                say("  replay: scripts/fuzz \(target) --seed \(seed) --index \(index)")
                exit(3)
            }
        }
    }
    thread.start()
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
var names: [String] = []
while let argument = arguments.first {
    arguments.removeFirst()
    if argument == "--list" {
        for target in FuzzTargets.all {
            say("\(target.name.padding(toLength: 16, withPad: " ", startingAt: 0))\(target.summary)")
        }
        exit(0)
    } else if argument.hasPrefix("--"), let value = arguments.first {
        options[String(argument.dropFirst(2))] = value
        arguments.removeFirst()
    } else {
        names.append(argument)
    }
}
let known: Set<String> = ["inputs", "seed", "from", "index", "findings", "slow-ms", "hang-seconds"]
guard options.keys.allSatisfy(known.contains), !names.isEmpty else {
    say("usage: hearth-fuzz TARGET… [--inputs N] [--seed S] [--from I] [--index I] [--findings DIR] [--slow-ms M]")
    say("       hearth-fuzz --list")
    exit(2)
}
let inputs = options["inputs"].flatMap { Int($0) } ?? 1_000_000
let seed = options["seed"].flatMap { UInt64($0) } ?? 1
let first = options["from"].flatMap { Int($0) } ?? 0
let findingsDirectory = options["findings"] ?? ".build/fuzz-findings"
let slowLimit = Duration.milliseconds(options["slow-ms"].flatMap { Int($0) } ?? 1_000)
let hangSeconds = options["hang-seconds"].flatMap { Double($0) } ?? 10

var targets: [FuzzTarget] = []
for name in names {
    guard let target = FuzzTargets.named(name) else {
        say("hearth-fuzz: no target \"\(name)\"; hearth-fuzz --list shows them")
        exit(2)
    }
    targets.append(target)
}

if let index = options["index"].flatMap({ Int($0) }) {
    for target in targets {
        let run = FuzzRun(target: target, seed: seed, slowLimit: slowLimit)
        say("\(target.name) input \(index) of seed \(seed): \(FuzzRun.printable(run.fuzzer.input(index)))")
        let outcome = run.run(index..<(index + 1))
        let verdict = outcome.accepted == 1 ? "accepted" : "refused"
        say(outcome.findings.first.map(\.description) ?? "no finding: \(verdict) in \(outcome.slowest)")
    }
    exit(0)
}

installCrashHandler()
var failed = false
for target in targets {
    startWatchdog(limit: hangSeconds, target: target.name, seed: seed)
    say("\(target.name): seed \(seed), inputs \(first)..<\(first + inputs)")
    let run = FuzzRun(target: target, seed: seed, slowLimit: slowLimit)
    let clock = ContinuousClock()
    let started = clock.now
    var total = FuzzRun.Outcome()
    let batch = 50_000
    for batchStart in stride(from: first, to: first + inputs, by: batch) {
        let range = batchStart..<min(batchStart + batch, first + inputs)
        let outcome = run.run(range) { index in
            currentStart.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            currentIndex.store(index, ordering: .relaxed)
        }
        currentIndex.store(-1, ordering: .relaxed)
        total.slowest = max(total.slowest, outcome.slowest)
        total.findings += outcome.findings
        total.accepted += outcome.accepted
        let seconds =
            Double((clock.now - started).components.seconds)
            + Double((clock.now - started).components.attoseconds) / 1e18
        let done = range.upperBound - first
        say(
            "\(target.name): \(done) inputs, \(Int(Double(done) / max(seconds, 1e-9))) inputs/s, "
                + "\(total.accepted * 100 / max(done, 1))% accepted, slowest \(total.slowest), "
                + "\(total.findings.count) findings")
    }
    guard !total.findings.isEmpty else { continue }
    failed = true
    try? FileManager.default.createDirectory(atPath: findingsDirectory, withIntermediateDirectories: true)
    for finding in total.findings.prefix(20) {
        say("FINDING: \(finding)")
        let file = "\(findingsDirectory)/\(finding.target)-\(finding.seed)-\(finding.index)"
        _ = FileManager.default.createFile(atPath: file + ".txt", contents: Data((finding.description + "\n").utf8))
        _ = FileManager.default.createFile(atPath: file + ".bin", contents: Data(finding.input))
    }
}
exit(failed ? 1 : 0)
