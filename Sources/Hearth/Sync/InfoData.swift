package import HearthCore

/// The data the engine answers itself under `.info`: `connected` and `serverTimeOffset`.
package struct InfoData: Sendable {
    /// `.info`, a key no write may use.
    package static let rootKey = Key(unchecked: ".info")
    package static let connectedPath = Path(keys: [rootKey, Key(unchecked: "connected")])
    package static let serverTimeOffsetPath = Path(keys: [rootKey, Key(unchecked: "serverTimeOffset")])

    package var isConnected = false
    /// The server's clock minus ours, in milliseconds.
    package var serverTimeOffset: Int64 = 0

    package init() {}

    /// The `.info` tree, rooted at the database root (so paths read as they are written).
    package var tree: Node {
        Node.empty
            .setting(Node(.bool(self.isConnected)), at: Self.connectedPath)
            .setting(Node(.int(self.serverTimeOffset)), at: Self.serverTimeOffsetPath)
    }
}
