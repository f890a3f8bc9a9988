import Testing

@testable import HearthBench

/// The command line of `hearth bench fanout`: defaults, every option, and refusals that name the option.
@Suite struct FanoutOptionsTests {
    @Test func defaultsAreTheIssuesShape() throws {
        let options = try FanoutOptions(arguments: [])
        #expect(options.target == .hearth && options.listeners == 10_000 && options.writes == 20)
        #expect(options.writer == .realtime)
        #expect(options.interval == .seconds(1) && options.threads == 2 && options.serverPID == nil)
    }

    @Test func readsEveryOption() throws {
        let options = try FanoutOptions(arguments: [
            "--target", "redis", "--writer", "realtime", "--server", "127.0.0.1:6380", "--listeners", "2000",
            "--writes", "300", "--interval", "5ms", "--threads", "3", "--server-pid", "42", "--namespace", "room",
            "--json", "out.json",
        ])
        #expect(options.target == .redis && options.server == StarsOptions.Node(host: "127.0.0.1", port: 6380))
        #expect(options.listeners == 2000 && options.writes == 300 && options.interval == .milliseconds(5))
        #expect(options.threads == 3 && options.serverPID == 42 && options.namespace == "room")
        #expect(options.jsonFile == "out.json")
        #expect(try FanoutOptions(arguments: ["--interval", "0"]).interval == .zero)
        #expect(try FanoutOptions(arguments: ["--writer", "rest"]).writer == .rest)
    }

    @Test func mistakesNameTheirOption() {
        let cases: [([String], String)] = [
            (["--target", "memcached"], "--target"), (["--server", "localhost"], "--server"),
            (["--listeners", "0"], "--listeners"), (["--writes", "1000000"], "--writes"),
            (["--interval", "-1s"], "--interval"), (["--threads"], "--threads"),
            (["--server-pid", "x"], "--server-pid"), (["--writer", "grpc"], "--writer"),
            (["--target", "redis", "--writer", "rest"], "--writer"),
            (["--speed", "1"], "--speed"),
        ]
        for (arguments, option) in cases {
            do {
                _ = try FanoutOptions(arguments: arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.option == option, "\(arguments): \(error)")
            }
        }
    }
}
