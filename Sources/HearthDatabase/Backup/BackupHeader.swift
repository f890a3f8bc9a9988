/// What a backup file says it holds, in its text header:
/// ```
/// hearth-backup 1
/// release<tab><the hearth release that wrote it>
/// written<tab><milliseconds since the Unix epoch>
/// shards<tab><shard count><tab><shard depth>
/// I<tab><shard><tab><index>      every entry of the shard's log up to <index> is in the backup
/// N<tab><namespace>              a namespace the backup holds (one line each, sorted)
/// B
/// ```
/// The trees follow the `B` line exactly as a version 4 snapshot holds them (`SnapshotTrees`), then the trailer
/// (`BackupFormat.trailer`).
public struct BackupHeader: Sendable, Equatable {
    /// The `HearthVersion.release` of the node that wrote the backup.
    public var release: String
    /// When the cut was taken, in milliseconds since the Unix epoch (the node's clock).
    public var writtenMilliseconds: Int64
    /// How many shards the node had, and the path depth that picked them.
    public var shardCount: Int
    public var shardDepth: Int
    /// Per shard: every entry of its log up to this index is in the backup (and no multi-path write is half in it).
    public var cut: [UInt64]
    /// The namespaces the backup holds, sorted.
    public var namespaces: [String]

    public init(
        release: String, writtenMilliseconds: Int64, shardDepth: Int, cut: [UInt64], namespaces: [String]
    ) {
        self.release = release
        self.writtenMilliseconds = writtenMilliseconds
        self.shardCount = cut.count
        self.shardDepth = shardDepth
        self.cut = cut
        self.namespaces = namespaces.sorted()
    }

    /// The header as written, ending with the `B` line.
    var text: String {
        var lines = [
            BackupFormat.magic, "release\t\(self.release)", "written\t\(self.writtenMilliseconds)",
            "shards\t\(self.shardCount)\t\(self.shardDepth)",
        ]
        for (shard, index) in self.cut.enumerated() { lines.append("I\t\(shard)\t\(index)") }
        for namespace in self.namespaces { lines.append("N\t\(namespace)") }
        lines.append(SnapshotTrees.marker)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads the header lines (the first one, the magic, already checked), up to but not including `B`.
    /// - Throws: `BackupFileError` naming the line that is wrong.
    init(lines: [Substring]) throws(BackupFileError) {
        var release: String?
        var written: Int64?
        var shards: (count: Int, depth: Int)?
        var cut: [Int: UInt64] = [:]
        var namespaces: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            switch (fields.first, fields.count) {
            case ("release", 2): release = String(fields[1])
            case ("written", 2): written = Int64(fields[1])
            case ("shards", 3):
                if let count = Int(fields[1]), let depth = Int(fields[2]), count >= 1, depth >= 0 {
                    shards = (count, depth)
                }
            case ("I", 3):
                guard let shard = Int(fields[1]), let index = UInt64(fields[2]) else { throw Self.unreadable(line) }
                cut[shard] = index
            case ("N", 2): namespaces.append(String(fields[1]))
            default:
                throw Self.unreadable(line)
            }
        }
        guard let release, let written, let shards else {
            throw BackupFileError("the backup's header lacks its release, time or shard lines")
        }
        let indexes = (0..<shards.count).compactMap { cut[$0] }
        guard indexes.count == shards.count, cut.count == shards.count else {
            throw BackupFileError("the backup's header names \(shards.count) shards but holds \(cut.count) shard cuts")
        }
        self.init(
            release: release, writtenMilliseconds: written, shardDepth: shards.depth, cut: indexes,
            namespaces: namespaces)
    }

    private static func unreadable(_ line: Substring) -> BackupFileError {
        BackupFileError("the backup's header has a line this release does not understand: \"\(line)\"")
    }
}
