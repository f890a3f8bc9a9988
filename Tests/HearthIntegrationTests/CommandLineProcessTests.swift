import Foundation
import HearthSystem
import HearthTestKit
import Testing

/// `hearth` explains itself: `--version` prints the release, a command line it cannot run gets its error and one
/// line pointing to the right help (exit 2), and every command's `--help` lists every option its parser reads.
@Suite struct CommandLineProcessTests {
    /// Runs `hearth` with `arguments`; returns its exit status and what it printed.
    private static func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ProcessOutput.run(URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments)
    }

    /// The options `file` (under Sources/hearth) names as string literals, `"--name"`, less `--help`.
    private static func options(namedIn file: String) throws -> Set<String> {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/hearth/" + file)
        let text = try String(contentsOf: path, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #""(--[a-z][a-z-]*)""#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return Set(matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
            .subtracting(["--help"])
    }

    /// `hearth --version` and `hearth version` print the release and the peer protocol, and exit 0.
    @Test func versionPrintsTheRelease() async throws {
        for spelling in ["--version", "version"] {
            let (status, output) = try await Self.hearth([spelling])
            #expect(status == 0)
            #expect(output.hasPrefix("hearth \(HearthVersion.release)\n"), "\(output)")
            #expect(output.contains("peer protocol "), "\(output)")
        }
    }

    /// A mistyped command or option prints its error and exactly one line pointing to the help, and exits 2.
    @Test func aMistakePrintsItsErrorAndOnePointer() async throws {
        let cases: [([String], String, String)] = [
            (["serve", "--prot", "9000"], "hearth: unknown option '--prot'", "`hearth serve --help`"),
            (["serve", "--catch-up-hold-seconds", "601"], "at most 600 s, not 601", "`hearth serve --help`"),
            (["serve", "--catch-up-hold-seconds", "3"], "needs --config or --join", "`hearth serve --help`"),
            (["srve"], "hearth: unknown command 'srve'", "`hearth help`"),
            (["cluster", "status", "--jsn"], "hearth: unknown option '--jsn'", "`hearth cluster --help`"),
            (["bench", "query", "--rows", "5"], "hearth: unknown option --rows", "`hearth bench --help`"),
            (["bench", "stars", "--speed", "1"], "--speed is not an option", "`hearth bench stars --help`"),
            (["bench", "fanout", "--listeners", "none"], "--listeners needs", "`hearth bench fanout --help`"),
        ]
        for (arguments, error, pointer) in cases {
            let (status, output) = try await Self.hearth(arguments)
            let lines = output.split(separator: "\n")
            #expect(status == 2, "\(arguments)")
            #expect(lines.count == 2, "\(arguments): \(output)")
            #expect(lines.first?.contains(error) == true, "\(arguments): \(output)")
            #expect(lines.last?.contains(pointer) == true, "\(arguments): \(output)")
        }
    }

    /// `hearth serve --help` lists every option `hearth serve` reads, with its default, and exits 0.
    @Test func serveHelpListsEveryOption() async throws {
        let (status, output) = try await Self.hearth(["serve", "--help"])
        #expect(status == 0)
        for option in try Self.options(namedIn: "Serve.swift") {
            #expect(output.contains(option + " "), "\(option)")
        }
        #expect(output.contains("--port N") && output.contains("(default 9000)"))
    }

    /// `hearth cluster --help` (and a subcommand's) lists every subcommand and option, and exits 0.
    @Test func clusterHelpListsEveryOption() async throws {
        for arguments in [["cluster", "--help"], ["cluster", "status", "--help"]] {
            let (status, output) = try await Self.hearth(arguments)
            #expect(status == 0, "\(arguments)")
            for option in try Self.options(namedIn: "ClusterOptions.swift") {
                #expect(output.contains(option + " "), "\(arguments): \(option)")
            }
            for subcommand in ["status", "wait", "partition", "heal", "remove", "describe"] {
                #expect(output.contains("hearth cluster \(subcommand) "), "\(arguments): \(subcommand)")
            }
        }
    }

    /// `hearth backup --help` and `hearth restore --help` list every option their parsers take, and exit 0.
    @Test func backupAndRestoreHelpListEveryOption() async throws {
        for (command, file) in [("backup", "BackupCommand.swift"), ("restore", "RestoreCommand.swift")] {
            let (status, output) = try await Self.hearth([command, "--help"])
            #expect(status == 0, "\(command)")
            let options = try Self.options(namedIn: file)
            #expect(!options.isEmpty, "\(file)")
            for option in options {
                #expect(output.contains(option + " "), "\(command): \(option)")
            }
        }
    }

    /// `hearth bench --help` and each benchmark's `--help` list their options with defaults, and exit 0.
    @Test func benchHelpListsEveryOption() async throws {
        for benchmark in ["query", "restart", "star"] {
            let (status, output) = try await Self.hearth(["bench", benchmark, "--help"])
            #expect(status == 0, "\(benchmark)")
            for option in try Self.options(namedIn: "Bench.swift") {
                #expect(output.contains(option + " "), "\(benchmark): \(option)")
            }
        }
        for benchmark in ["stars", "fanout"] {
            let (status, output) = try await Self.hearth(["bench", benchmark, "--help"])
            #expect(status == 0, "\(benchmark)")
            #expect(output.contains("--namespace NAME") && output.contains("(default "), "\(benchmark): \(output)")
        }
    }
}
