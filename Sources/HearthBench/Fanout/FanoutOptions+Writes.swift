import HearthSystem

/// The writes as this run's writer sends them.
extension FanoutOptions {
    /// Whether the writer's connection starts with a WebSocket upgrade (a realtime writer to Hearth).
    var writerUpgrades: Bool { self.target.upgrades && self.writer == .realtime }

    /// Write number `index`: the target's own write (`Target.write`), or for a REST writer a `PUT` of the same
    /// short string to the same location, on the keep-alive connection its writes are pipelined on.
    func write(_ index: Int, using random: inout BufferedSystemRandom) -> [UInt8] {
        guard self.target == .hearth, self.writer == .rest else { return self.target.write(index, using: &random) }
        let body = #""x""#
        let head =
            "PUT /\(Target.room)/m\(Target.padded(index)).json?ns=\(self.namespace) HTTP/1.1\r\nHost: \(self.server)"
            + "\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return Array((head + body).utf8)
    }
}
