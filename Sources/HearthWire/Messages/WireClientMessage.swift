/// One message from a client to the server (reference §1.3, §1.4, §1.6): a control message, or a request that the
/// server answers under its id.
///
/// The server decodes these (`init(decoding:)`) and a client encodes them (`encoded()`); see
/// `WireClientMessage+Coding.swift`.
public enum WireClientMessage: Sendable, Equatable {
    /// A control message: a ping, or a step of a transport upgrade.
    case control(WireClientControl)
    /// A data request with the client's per-connection request id `r`.
    case request(id: Int64, WireRequest)

    /// Why a client's message could not be decoded, which decides what the server does about it.
    public enum DecodingError: Error, Sendable, Equatable {
        /// Not a wire envelope at all: the session closes the connection with this error's message.
        case malformed(WireProtocolError)
        /// A well-formed request the server refuses (unknown action, missing or mistyped field): it answers the
        /// request `id` with this error and carries on.
        case rejected(id: Int64, action: String, WireProtocolError)
    }
}
