/// A command line a `hearth bench` load generator cannot run, naming the option at fault.
public struct BenchOptionsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let option: String
    public let problem: String

    init(_ option: String, _ problem: String) {
        self.option = option
        self.problem = problem
    }

    public var description: String { "\(self.option) \(self.problem)" }
}
