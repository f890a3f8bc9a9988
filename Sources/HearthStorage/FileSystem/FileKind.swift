/// What a path names on a `FileSystem`: a callers' check before it creates, lists or reads there (a restore's
/// target, a joined member's record).
package enum FileKind: Sendable, Equatable {
    /// A regular file.
    case file
    /// A directory.
    case directory
    /// Anything else (a device, a socket, a pipe): never a data directory's file.
    case other
}
