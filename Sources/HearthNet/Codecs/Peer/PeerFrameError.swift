/// Why a peer connection is being closed: a frame over the size limit, a handshake that does not match or does not
/// prove the cluster secret, or a protocol violation. Its message names the peer's claim and what the operator
/// should check.
package struct PeerFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { self.name }

        /// A frame's declared payload is larger than the limit.
        package static let frameTooLarge = Code("frameTooLarge")
        /// The first frame was not a hello, or a second hello arrived.
        package static let unexpectedFrame = Code("unexpectedFrame")
        /// The hello is not a Hearth hello at all (wrong magic or truncated).
        package static let malformedHello = Code("malformedHello")
        /// The peer speaks another version of the peer protocol.
        package static let versionMismatch = Code("versionMismatch")
        /// The peer runs a release this node may not run beside, or this node one the peer may not (`ReleaseRule`).
        package static let releaseIncompatible = Code("releaseIncompatible")
        /// The peer belongs to another cluster.
        package static let clusterMismatch = Code("clusterMismatch")
        /// The peer is not the node expected on this connection (or not a member at all).
        package static let unexpectedNode = Code("unexpectedNode")
        /// The peer's proof was not made with the cluster secret over this connection's hellos.
        package static let authenticationFailed = Code("authenticationFailed")
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { self.message }
}
