import Foundation

/// A fresh directory under the system temp folder, removed by `remove()`; tests use one each so they never collide.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "hearth-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
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

    public func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}
