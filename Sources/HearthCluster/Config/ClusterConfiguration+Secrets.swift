package import HearthNet
import HearthStorage

/// Reading the cluster secret (`secretFile`, `hearth serve --cluster-secret-file`): one key a line, the first
/// signing this node's proofs and every one accepted from peers, so a secret can be rotated by a rolling restart.
extension ClusterConfiguration {
    /// How to make a good secret, said in every error about one.
    public static let secretAdvice = "make one with: head -c 32 /dev/urandom | base64 > FILE; chmod 600 FILE"

    /// The cluster secret in the file at `path` (blank lines and surrounding spaces ignored), named `what` in
    /// errors (`secretFile`, `--cluster-secret-file`).
    ///
    /// - Throws: `ClusterConfigurationError`: `.unreadable` when the file is missing or cannot be read,
    ///   `.weakSecret` when it holds no key or a key of fewer than `PeerClusterSecret.minimumKeyLength` bytes.
    package static func clusterSecret(fromFile path: String, what: String) throws(ClusterConfigurationError)
        -> PeerClusterSecret
    {
        let bytes: [UInt8]
        do {
            bytes = try PosixFileSystem().readAll(path)
        } catch {
            throw ClusterConfigurationError(
                .unreadable, field: what,
                "\(what) \(path) cannot be read (\(error.message)); every member needs the same cluster secret: "
                    + "copy the file to this node, or \(Self.secretAdvice).")
        }
        let keys = bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }).map {
            line in Array(line.drop(while: Self.isSpace).reversed().drop(while: Self.isSpace).reversed())
        }
        .filter { !$0.isEmpty }
        guard let secret = PeerClusterSecret(keys: keys) else {
            let problem =
                keys.isEmpty
                ? "holds no secret"
                : "holds a secret shorter than \(PeerClusterSecret.minimumKeyLength) bytes, which can be guessed"
            throw ClusterConfigurationError(
                .weakSecret, field: what, "\(what) \(path) \(problem); \(Self.secretAdvice).")
        }
        return secret
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
