import HearthCore
package import HearthDatabase

/// What a shard's Raft group carries as snapshot data (`RaftSnapshot.data`), and what a node stores per shard: the
/// shard's snapshot cut from the read view, with the terms of the committed entries it replaces, so a replica that
/// installs it (or restarts from it) can still tell a write waiting on one of those entries whether it committed.
///
/// Layout: `u8 1` (the format), the committed terms (`CommittedTerms.encode`), then the shard snapshot's text to the
/// end.
package struct ShardSnapshotPayload: Sendable {
    static let formatVersion: UInt8 = 1

    var snapshot: ShardSnapshot
    var terms: CommittedTerms

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(snapshot: ShardSnapshot, terms: CommittedTerms) {
        self.snapshot = snapshot
        self.terms = terms
    }

    package func encoded() -> [UInt8] {
        var bytes = [Self.formatVersion]
        self.terms.encode(to: &bytes)
        self.snapshot.encode(into: &bytes)
        return bytes
    }

    /// Decodes the payload of shard `shard`'s snapshot.
    /// - Throws: `CommitRecordError` naming what is wrong when the bytes are damaged, of another format, or hold
    ///   another shard's snapshot.
    static func decode(_ bytes: [UInt8], shard: Int, spineDepth: Int) async throws -> ShardSnapshotPayload {
        var reader = BinaryReader(bytes: bytes)
        let terms: CommittedTerms
        do {
            let version = try reader.readUInt8()
            guard version == Self.formatVersion else {
                throw CommitRecordError(
                    "shard \(shard)'s snapshot has format \(version); this build reads format \(Self.formatVersion)")
            }
            terms = try CommittedTerms(from: &reader)
        } catch let error as BinaryDecodingError {
            throw CommitRecordError("shard \(shard)'s snapshot cannot be read: \(error.detail)")
        }
        let snapshot = try await ShardSnapshot.decode(
            Array(bytes[reader.offset...]), shard: shard, spineDepth: spineDepth)
        return ShardSnapshotPayload(snapshot: snapshot, terms: terms)
    }
}
