/// How `FileSystem.open` opens a file.
package enum FileOpenMode: Sendable {
    /// Read only, from the start.
    case read
    /// Write at the end, creating the file if needed.
    case append
    /// Write at the end of a file that must not exist yet.
    case createNew
    /// Write at the offsets `FileSystem.write(_:_:at:)` names, creating the file if needed: the log overwrites the
    /// zeros it wrote ahead of its end, so a sync after an append flushes data, not the file's size.
    case positioned
    /// Write at the offsets `FileSystem.write(_:_:at:)` names, in a file that must not exist yet.
    case createNewPositioned
}
