import Foundation
import HearthWire

/// The errors the database hands an app: `NSError`s in Firebase's domain, `com.firebase`, with its codes
/// (`permission_denied` 1, `unavailable` 2, `write_canceled` 3, anything else 9999) and a description a developer
/// can act on. The server's or the engine's status word is kept under `DatabaseErrors.statusKey`.
public enum DatabaseErrors {
    /// FirebaseDatabase's error domain.
    public static let domain = "com.firebase"
    /// The `userInfo` key holding the status word (`permission_denied`, `maxretry`, `disconnected`, …).
    public static let statusKey = "status"

    /// Firebase's codes for the statuses it numbers; every other status is 9999.
    static let codes = ["permission_denied": 1, "unavailable": 2, "write_canceled": 3]

    static func error(_ error: WireProtocolError) -> NSError {
        let status = error.code.description
        return NSError(
            domain: Self.domain,
            code: Self.codes[status] ?? 9999,
            userInfo: [NSLocalizedDescriptionKey: error.message, Self.statusKey: status]
        )
    }

    static func error(_ error: DatabaseValueError) -> NSError {
        NSError(
            domain: Self.domain,
            code: 9999,
            userInfo: [NSLocalizedDescriptionKey: error.message, Self.statusKey: "invalid_data"]
        )
    }
}
