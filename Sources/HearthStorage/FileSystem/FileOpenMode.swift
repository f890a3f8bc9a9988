/// How `FileSystem.open` opens a file.
package enum FileOpenMode: Sendable {
    /// Read only, from the start.
    case read
    /// Write at the end, creating the file if needed.
    case append
    /// Write at the end of a file that must not exist yet.
    case createNew
}
