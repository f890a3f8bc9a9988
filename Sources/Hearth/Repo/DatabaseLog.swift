import Foundation
import HearthSystem
import Synchronization

/// The library's log: off by default, on with `Database.setLoggingEnabled(true)`; lines go to standard error with
/// a `[Hearth]` prefix. Failures an app did not ask to hear about (a write with no completion block refused) are
/// always logged.
enum DatabaseLog {
    private static let isEnabled = Atomic<Bool>(false)

    static func setEnabled(_ enabled: Bool) {
        Self.isEnabled.store(enabled, ordering: .relaxed)
    }

    /// Logs when logging is on.
    static func write(_ message: @autoclosure () -> String) {
        guard Self.isEnabled.load(ordering: .relaxed) else { return }
        Self.always(message())
    }

    /// Logs whatever the setting.
    static func always(_ message: String) {
        FileHandle.standardError.write(Data("[Hearth] \(message)\n".utf8))
    }
}
