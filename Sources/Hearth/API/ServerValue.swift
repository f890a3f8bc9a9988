public import Foundation

/// Placeholders the server fills in when it applies a write, as in FirebaseDatabase; local events show an
/// estimate until the server's value arrives. A class of class methods, as FirebaseDatabase's `NSObject` is.
public final class ServerValue: NSObject, Sendable {
    /// The server's clock, in milliseconds since the Unix epoch (estimated locally from `.info/serverTimeOffset`).
    @discardableResult
    public static func timestamp() -> [AnyHashable: Any] {
        [".sv": "timestamp"]
    }

    /// The current number at the location plus `delta` (0 plus `delta` when it holds no number), applied by the
    /// server atomically: concurrent increments from many clients all count.
    @discardableResult
    public static func increment(_ delta: NSNumber) -> [AnyHashable: Any] {
        [".sv": ["increment": delta]]
    }
}
