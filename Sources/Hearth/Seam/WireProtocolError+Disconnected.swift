package import HearthWire

/// The failure for a request the connection could not carry: sent when offline, or in flight when the connection
/// dropped. Firebase's clients use the same status, `disconnected`, and the engine recognises it by its code.
extension WireProtocolError.Code {
    /// The request could not be sent, or its answer was lost with the connection.
    package static let disconnected = Self(status: "disconnected")
}

extension WireProtocolError {
    /// The failure a request made while offline gets at once.
    package static let offline = WireProtocolError(
        .disconnected, "The client is offline; the request was not sent. Try again once connected.")

    /// The failure a request in flight gets when the connection drops before its answer.
    package static let connectionLost = WireProtocolError(
        .disconnected, "The connection dropped before the server answered; the request may or may not have run.")
}
