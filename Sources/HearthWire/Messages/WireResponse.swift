import HearthCore

/// The answer to one client request (reference §1.7): `{"s": <status>, "d": <data>}`.
///
/// Clients require a listen's `ok` to carry an object (at least `{}`) and every failure a string message, which is
/// what these cases produce.
public enum WireResponse: Sendable, Equatable {
    /// `ok` with its data: `{}` for listens and writes, `""` for stats, the data read for a get.
    case ok(WireData)
    /// A refusal: the status is the error's code, the data its message.
    case failure(WireProtocolError)

    /// `ok` with an empty object, the answer to listens, writes and most other requests.
    public static let okEmpty = WireResponse.ok(.json(.object([:])))
}
