/// Why a backup file cannot be used: not a backup, a format this release does not read, cut short, or damaged. The
/// message says which, with the offsets and sizes involved, so the operator knows whether to take the backup again
/// or fetch another copy.
public struct BackupFileError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
