import HearthCore
import HearthStorage

/// Where snapshot bytes go: a snapshot file, or bytes in memory (a shard's snapshot, as Raft ships it).
protocol SnapshotSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension SnapshotWriter: SnapshotSink {}

extension Array: SnapshotSink where Element == UInt8 {}

/// A snapshot sink that remembers the first write error instead of throwing it at every write, so encoders can
/// write record after record and check once at the end.
struct SnapshotOutput<Sink: SnapshotSink> {
    var sink: Sink
    var error: (any Error)?

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard self.error == nil else { return }
        do { try self.sink.write(bytes) } catch { self.error = error }
    }

    mutating func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { self.write($0) }
    }

    mutating func write(text: String) {
        var text = text
        text.withUTF8 { self.write(UnsafeRawBufferPointer($0)) }
    }
}
