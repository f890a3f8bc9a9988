extension ChildProcess {
    /// Where a child's standard input comes from.
    public enum Input: Sendable, Hashable {
        /// This process's standard input.
        case inherit
        /// `/dev/null`: the child reads end-of-file at once.
        case empty
        /// A pipe whose writing end is `standardInput`.
        case pipe
    }

    /// Where a child's standard output or error goes.
    public enum Output: Sendable, Hashable {
        /// This process's same stream.
        case inherit
        /// `/dev/null`.
        case discard
        /// A pipe whose reading end is `standardOutput` or `standardError`.
        case pipe
        /// Wherever the child's standard output goes, interleaved with it (for standard error only).
        case standardOutput
    }
}
