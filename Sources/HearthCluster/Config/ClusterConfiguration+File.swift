import HearthStorage

/// Loading a configuration from disk, as `hearth serve --config` and `scripts/cluster` do.
extension ClusterConfiguration {
    /// Reads and checks the configuration file at `path`.
    ///
    /// - Throws: `ClusterConfigurationError` (`.unreadable` when the file cannot be read).
    public init(contentsOfFile path: String) throws(ClusterConfigurationError) {
        let bytes: [UInt8]
        do {
            bytes = try PosixFileSystem().readAll(path)
        } catch {
            throw ClusterConfigurationError(
                .unreadable,
                field: "",
                "The cluster configuration \(path) cannot be read (\(error.message)); check the path and its "
                    + "permissions."
            )
        }
        try self.init(json: bytes)
    }
}
