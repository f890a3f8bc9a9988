extension StarsOptions {
    /// Every option with the value the run used (defaults included), as the HTML report lists them.
    public var summary: [(name: String, value: String)] {
        [
            ("--nodes", self.nodes.map(\.description).joined(separator: ",")),
            ("--clients", "\(self.clients)"), ("--posts", "\(self.posts)"), ("--users", "\(self.users)"),
            ("--duration", "\(StarReport.format(self.duration.inSeconds))s"), ("--mode", self.mode.rawValue),
            ("--hot", self.hot ? "yes" : "no"), ("--readers", "\(self.readerCount)"),
            ("--namespace", self.namespace), ("--chaos", self.killsLeader ? "kill-leader" : "none"),
            ("--cluster-script", self.clusterScript), ("--credential-file", self.credentialFile ?? "none"),
            ("--cleanup", self.cleansUp ? "yes" : "no"),
            ("--slow-log", self.slowLog.map { "\(StarReport.format($0.inSeconds))s" } ?? "off"),
            ("--json", self.jsonFile ?? "none"),
            ("--html", self.htmlFile ?? "none"),
        ]
    }
}
