import Foundation
import HearthSystem

/// A fresh directory under the system temp folder ($TMPDIR), so tests never collide.
///
/// Every directory made here is removed by the end of the test process: `remove()` (or `with`, which calls it
/// when its body ends) removes it at once, and whatever is still there when the process exits normally is removed
/// then, so a test that forgets, fails half-way or hands its directory to a server that outlives it leaves nothing
/// behind. A test process that crashes or is killed runs no exit handler: its directories stay.
public struct TemporaryDirectory: Sendable {
    public let path: String

    /// The directories made and not yet removed, by this process.
    private static let made = Lock<Set<String>>([])
    /// Registers the removal at exit, once.
    private static let removalAtExit: Void = {
        atexit { TemporaryDirectory.removeAllMade() }
    }()

    public init(_ label: String = "hearth-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
        Self.removalAtExit
        Self.made.withLock { _ = $0.insert(path) }
    }

    /// Runs `body` with a fresh directory and removes the directory when it returns or throws.
    public static func with<T>(
        _ label: String = "hearth-test", _ body: (TemporaryDirectory) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory(label)
        defer { directory.remove() }
        return try await body(directory)
    }

    /// A path inside the directory.
    public func child(_ name: String) -> String {
        self.path + "/" + name
    }

    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: self.path).sorted()
    }

    public func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: self.child(name))))
    }

    public func replace(_ name: String, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: self.child(name)))
    }

    public func removeFile(_ name: String) throws {
        try FileManager.default.removeItem(atPath: self.child(name))
    }

    /// Removes the directory and everything in it now; if a process still writing there defeats that, the removal
    /// at exit tries again.
    public func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
        guard !FileManager.default.fileExists(atPath: self.path) else { return }
        Self.made.withLock { _ = $0.remove(self.path) }
    }

    /// Removes every directory this process made and has not removed (at exit). A node killed a moment ago may
    /// still be writing in one, or a thread still removing it, so each is tried again for up to a second.
    private static func removeAllMade() {
        let left = Self.made.withLock { made in
            defer { made.removeAll() }
            return made
        }
        for path in left {
            for _ in 0..<20 {
                try? FileManager.default.removeItem(atPath: path)
                guard FileManager.default.fileExists(atPath: path) else { break }
                usleep(50_000)
            }
        }
    }
}
