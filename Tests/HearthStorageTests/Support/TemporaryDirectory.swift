import Foundation

/// A fresh directory under the system temp folder, removed by `remove()`; tests use one each so they never collide.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = "hearth-storage") throws {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// A path inside the directory.
    func child(_ name: String) -> String {
        self.path + "/" + name
    }

    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: self.path).sorted()
    }

    func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: self.child(name))))
    }

    func replace(_ name: String, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: self.child(name)))
    }

    func removeFile(_ name: String) throws {
        try FileManager.default.removeItem(atPath: self.child(name))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}
