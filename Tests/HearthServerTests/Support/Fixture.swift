import HearthCore
import HearthWire

@testable import HearthDatabase
@testable import HearthServer

extension ShardEntry {
    /// The entry's log bytes: two entries are the same entry when these are equal.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        self.encode(into: &bytes)
        return bytes
    }
}

extension ShardIntent {
    /// The intent as its prepare entry's bytes, to compare intents.
    func bytes(_ transaction: TransactionID) -> [UInt8] {
        ShardEntry.prepare(transaction, ShardIntent(write: self.write, plan: self.plan)).bytes
    }
}

/// Paths and values written tersely in tests.
enum Fixture {
    static func path(_ text: String) -> Path {
        Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
    }

    /// A write value parsed from JSON text at `path`.
    static func value(_ json: String, at path: Path = .root) throws -> WriteValue {
        try WriteValue.parseWrite(Array(json.utf8), depth: path.count)
    }

    static func set(_ path: String, _ json: String) throws -> Mutation {
        .set(Self.path(path), try Self.value(json, at: Self.path(path)))
    }

    static func node(_ json: String) throws -> Node {
        try Self.value(json).node
    }

    /// A node as compact export JSON, for readable expectations.
    static func json(_ node: Node) -> String {
        String(decoding: node.jsonBytes(format: .export), as: UTF8.self)
    }

    /// Keys `prefix0`, `prefix1`, … in the order of the first one landing in each wanted shard (`nil` when some
    /// shard is never hit in the first thousand keys).
    static func keys(
        _ prefix: String, under parent: Path, router: ShardRouter, shards wanted: [Int], namespace: String = "default"
    ) -> [String]? {
        var found: [Int: String] = [:]
        for index in 0..<1000 {
            let key = "\(prefix)\(index)"
            guard let shard = router.shard(namespace: namespace, path: parent.appending(Key(unchecked: key))),
                wanted.contains(shard), found[shard] == nil
            else { continue }
            found[shard] = key
        }
        let keys = wanted.compactMap { found[$0] }
        return keys.count == wanted.count ? keys : nil
    }
}
