import HearthCore
import HearthDatabase

/// How the events of a stream at one path are written (Firebase's `put` and `patch`), in one of the two formats:
/// plain values, or with priorities (`format=export`).
struct SSEEvents: Sendable {
    let path: Path
    let exportFormat: Bool

    /// A `put` of the whole value at the stream's path.
    func put(_ value: Node) -> [UInt8] {
        self.put(json: self.render(value))
    }

    /// A `put` at the stream's path of data already written as JSON (a `shallow=values` stream's level).
    func put(json: [UInt8]) -> [UInt8] {
        self.event("put", path: .root, data: json)
    }

    /// The `put`/`patch` events a default (unfiltered) stream at `path` gets for a change: the same for every one.
    func events(for change: CommittedChange) -> [[UInt8]] {
        let inside: [ResolvedMutation]
        switch change.effect(at: self.path) {
        case .replaced(let old, let new):
            return old == new ? [] : [self.put(new)]
        case .inside(let mutations):
            inside = mutations.filter { mutation in
                guard case .set = mutation else { return self.exportFormat }
                return true
            }
        }
        if inside.count > 1, let parent = inside[0].path.parent, self.path.contains(parent),
            inside.allSatisfy({ $0.path.parent == parent })
        {
            var data = Array("{".utf8)
            for (index, mutation) in inside.enumerated() {
                if index > 0 { data.append(UInt8(ascii: ",")) }
                data += Node(.string(mutation.path.last?.string ?? "")).jsonBytes(format: .plain, pretty: false)
                data.append(UInt8(ascii: ":"))
                data += self.render(change.newRoot.node(at: mutation.path))
            }
            data.append(UInt8(ascii: "}"))
            return [self.event("patch", path: self.relative(parent), data: data)]
        }
        return inside.map { mutation in
            self.event(
                "put", path: self.relative(mutation.path), data: self.render(change.newRoot.node(at: mutation.path)))
        }
    }

    private func relative(_ path: Path) -> Path {
        self.path.relativePath(to: path) ?? .root
    }

    private func render(_ node: Node) -> [UInt8] {
        node.jsonBytes(format: self.exportFormat ? .export : .plain, pretty: false)
    }

    private func event(_ name: String, path: Path, data: [UInt8]) -> [UInt8] {
        var bytes = Array("event: \(name)\ndata: {\"path\":".utf8)
        bytes += Node(.string(path.description)).jsonBytes(format: .plain, pretty: false)
        bytes += Array(",\"data\":".utf8)
        bytes += data
        bytes += Array("}\n\n".utf8)
        return bytes
    }
}
