import Glibc

/// A system call made by HearthSystem failed (today: the system refused to start a thread); names the call and the
/// system's reason, and says what the operator can change.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, e.g. `pthread_create`.
    public let call: String
    /// The `errno` value (or the returned error number, for pthread calls).
    public let errorNumber: Int32
    /// What went wrong and what to do about it.
    public let message: String

    public init(call: String, errorNumber: Int32, message: String) {
        self.call = call
        self.errorNumber = errorNumber
        self.message = message
    }

    public var description: String { self.message }

    /// The system's text for `errorNumber` with the number itself, e.g. `No such file or directory (errno 2)`: the
    /// one way every layer spells an errno in a message.
    public static func describe(_ errorNumber: Int32) -> String {
        guard let text = strerror(errorNumber) else { return "errno \(errorNumber)" }
        return "\(String(cString: text)) (errno \(errorNumber))"
    }
}
