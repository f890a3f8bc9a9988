/// The release this build of Hearth is, in one place so that `hearth --version`, `hearth-bench`, the bench's reports
/// and every peer hello name the same one.
public enum HearthVersion {
    /// This build's release; raised with each release. Which releases may run together in one cluster follows from
    /// it (`ReleaseRule`): a hello carries it, and peers of releases the rule does not allow are refused.
    public static let current = HearthRelease(major: 0, minor: 3, patch: 0)

    /// The release number as text, `MAJOR.MINOR.PATCH`.
    public static let release = HearthVersion.current.description
}
