/// The release this build of Hearth is, in one place so that `hearth --version`, `hearth-bench` and the bench's
/// reports all name the same one.
public enum HearthVersion {
    /// The release number, `MAJOR.MINOR.PATCH`; raised with each release. What may run beside what is decided by
    /// the peer protocol and log format versions `hearth --version` prints with it, not by this number.
    public static let release = "0.1.0"
}
