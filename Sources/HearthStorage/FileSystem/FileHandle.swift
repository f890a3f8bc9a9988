/// An open file: its descriptor and the path it was opened with, so every error can name the file.
package struct FileHandle: Sendable, Hashable {
    package let descriptor: Int32
    package let path: String

    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }
}
