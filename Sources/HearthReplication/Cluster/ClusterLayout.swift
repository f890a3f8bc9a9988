import HearthCore
package import HearthDatabase
package import HearthStorage

/// How a member's data is laid out: how many shards paths hash into and how many Raft groups hold them. Both are fixed
/// when the cluster is founded — the groups' logs, state machines and snapshots hold their shards' data — so a member
/// records its layout in its data directory (`layout.json`) when it first opens and refuses to open the same data
/// under another (a changed `shards` or `groups` would route locations to groups that never held them, and their
/// data would look gone).
package struct ClusterLayout: Equatable {
    static let fileName = "layout.json"

    /// Shards paths hash into (the configuration's `shards`).
    var shards: Int
    /// Raft groups holding them (the configuration's `groups`, or one per shard).
    var groups: Int

    /// The layout `router` routes by.
    package init(router: ShardRouter) {
        self.shards = router.hashBuckets
        self.groups = router.shardCount
    }

    init(shards: Int, groups: Int) {
        self.shards = shards
        self.groups = groups
    }

    /// The layout in words: `16 shards in 1 Raft group`.
    var words: String { "\(self.shards) shards in \(self.groups) Raft group\(self.groups == 1 ? "" : "s")" }

    var json: JSONValue { .object(["shards": .int(Int64(self.shards)), "groups": .int(Int64(self.groups))]) }

    /// Reads a recorded layout.
    /// - Throws: `ClusterLayoutError` when the text is not one.
    init(json bytes: [UInt8], path: String) throws(ClusterLayoutError) {
        guard let document = try? JSONReader.parseValue(bytes), case .int(let shards)? = document["shards"],
            case .int(let groups)? = document["groups"], let shards = Int(exactly: shards),
            let groups = Int(exactly: groups)
        else {
            throw ClusterLayoutError(
                "\(path) does not hold a layout; write the shards and groups the cluster was founded with into it "
                    + "({\"shards\": S, \"groups\": G}), or empty the data directory to start a new cluster.")
        }
        self.init(shards: shards, groups: groups)
    }

    /// Checks `directory`'s recorded layout against `self`, recording it when the directory has none. A directory
    /// whose log holds data but no layout file was written before layouts were recorded, with one group per shard
    /// (the only layout then), and is held to that.
    /// - Parameter holdsData: whether the member's write-ahead log recovered any shard group's state.
    /// - Throws: `ClusterLayoutError` naming both layouts when they differ; `StorageError` when the file cannot be
    ///   read or written.
    package func check(directory: String, holdsData: Bool, fileSystem: any FileSystem) throws {
        let path = directory + "/" + Self.fileName
        let recorded: ClusterLayout?
        if try fileSystem.kind(of: path) != nil {
            recorded = try ClusterLayout(json: try fileSystem.readAll(path), path: path)
        } else {
            recorded = nil
        }
        if let recorded, recorded != self {
            throw ClusterLayoutError(recorded: recorded, configured: self, directory: directory)
        }
        if recorded == nil {
            if holdsData && self.groups != self.shards {
                throw ClusterLayoutError(
                    recorded: ClusterLayout(shards: self.shards, groups: self.shards), configured: self,
                    directory: directory)
            }
            try fileSystem.replaceFile(path, with: self.json.jsonBytes())
        }
    }
}

/// A member's data was laid out for other shards or groups than its configuration gives: the member does not start,
/// rather than show its data as gone.
struct ClusterLayoutError: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    init(recorded: ClusterLayout, configured: ClusterLayout, directory: String) {
        self.description =
            "\(directory) holds data laid out as \(recorded.words), but the configuration gives \(configured.words): "
            + "shards and groups are "
            + "fixed when a cluster is founded. Start the member with the configuration its cluster was founded with "
            + "(a file without \"groups\" has one group per shard), or empty its data directory to start a new cluster."
    }
}
