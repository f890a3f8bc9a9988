import Glibc

/// A child process could not be started: names the program and the system's reason.
public struct ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the program could not be started.
    public enum Reason: Sendable, Hashable {
        /// Nothing exists at the path.
        case notFound
        /// The file exists but this user may not execute it (or a directory on the way may not be searched).
        case notExecutable
        /// Another system refusal (no memory, too many processes or open files): the call and its errno.
        case system(call: String, errorNumber: Int32)
    }

    /// The program's path.
    public let executable: String
    public let reason: Reason

    public init(executable: String, reason: Reason) {
        self.executable = executable
        self.reason = reason
    }

    /// Classifies an errno from starting `executable`.
    init(executable: String, call: String, errorNumber: Int32) {
        self.executable = executable
        switch errorNumber {
        case ENOENT, ENOTDIR: self.reason = .notFound
        case EACCES, EPERM, ENOEXEC: self.reason = .notExecutable
        default: self.reason = .system(call: call, errorNumber: errorNumber)
        }
    }

    public var description: String {
        switch self.reason {
        case .notFound:
            "Could not start \(self.executable): no such file. Build it first or check the path."
        case .notExecutable:
            "Could not start \(self.executable): it is not an executable this user may run (chmod +x?)."
        case .system(let call, let errorNumber):
            "Could not start \(self.executable): \(call) failed: \(SystemError.describe(errorNumber)). "
                + "Raise the process or open-file limits (ulimit -u, ulimit -n) or free memory."
        }
    }
}
