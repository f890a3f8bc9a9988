/// How the realtime protocol words a broken write rule.
extension WireProtocolError {
    /// `invalid_data` with the rule's own message, such as `Invalid path "a/.b": …` or
    /// `Merge paths /a and /a/b overlap; …`.
    public init(_ rule: WriteRuleError) {
        self.init(.invalidData, rule.description)
    }
}
