/// Why a test client or test harness call failed (connect, send, read, upgrade, child process); the description is
/// what the failing test prints.
public struct TestClientError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
