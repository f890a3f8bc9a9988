public import HearthCore
import HearthStorage

/// How the read view is laid out inside a snapshot: for each namespace, one line with its name and one line with
/// its tree as export-format JSON (compact JSON never contains a raw newline).
enum SnapshotFormat {
    static func encode(_ roots: [String: Node], into writer: inout SnapshotWriter) throws {
        for (namespace, root) in roots.sorted(by: { $0.key < $1.key }) {
            try writer.write(Array(namespace.utf8) + [0x0A])
            var output = SnapshotJSONOutput(writer: writer)
            root.writeJSON(format: .export, pretty: false, to: &output)
            writer = output.writer
            if let error = output.error { throw error }
            try writer.write([0x0A])
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> [String: Node] {
        var roots: [String: Node] = [:]
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
        while let name = lines.popFirst(), !name.isEmpty {
            guard let tree = lines.popFirst() else {
                throw CommitRecordError("snapshot ends after namespace \(String(decoding: name, as: UTF8.self))")
            }
            let root = try WriteValue.parseWrite(Array(tree), depth: 0).node
            roots[String(decoding: name, as: UTF8.self)] = root.isEmpty ? nil : root
        }
        return roots
    }
}

/// Adapts the JSON writer's streaming output to a snapshot file, remembering the first write error.
struct SnapshotJSONOutput: JSONOutput {
    var writer: SnapshotWriter
    var error: (any Error)?

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard self.error == nil else { return }
        do { try self.writer.write(bytes) } catch { self.error = error }
    }
}
