import Foundation

extension Bench {
    /// `hearth bench stars|fanout …`: runs `hearth-bench` with the same arguments, the load generator built next to
    /// this binary (a program of its own, so the server does not link the client library it drives the load with).
    static func loadGenerator(_ arguments: [String]) throws -> Never {
        let own =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let generator = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("hearth-bench")
            .path
        guard FileManager.default.isExecutableFile(atPath: generator) else {
            throw UsageError(
                "bench \(arguments.first ?? "") runs hearth-bench, which is not next to this hearth (\(generator)); "
                    + "build it with `swift build -c release --product hearth-bench`")
        }
        let argv = ([generator] + arguments).map { strdup($0) } + [nil]
        execv(generator, argv)
        throw UsageError("could not start \(generator): \(String(cString: strerror(errno)))")
    }
}
