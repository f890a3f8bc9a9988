extension StarsOptions {
    /// Every option `hearth bench stars` takes, with its meaning and default (the defaults read from `init()`).
    public static let options: [BenchOption] = {
        let defaults = StarsOptions()
        let modes = Mode.allCases.map(\.rawValue).joined(separator: "|")
        return [
            BenchOption(
                "--nodes", "HOST:PORT[,HOST:PORT…]",
                "the nodes' HTTP ports; clients are spread over them in turn",
                default: defaults.nodes.map(\.description).joined(separator: ",")),
            BenchOption(
                "--clients", "N", "realtime-protocol connections, each one app's, each with one star in flight",
                default: "\(defaults.clients)"),
            BenchOption(
                "--posts", "N", "posts the clients star, each under posts/ and user-posts/",
                default: "\(defaults.posts)"),
            BenchOption(
                "--users", "N",
                "users who star, shared out among the clients so no two toggle the same star; "
                    + "at least --clients", default: "\(defaults.users)"),
            BenchOption(
                "--duration", "LENGTH", "how long to run: 30s, 500ms, 2m or a number of seconds",
                default: OptionValues.text(of: defaults.duration)),
            BenchOption(
                "--mode", modes,
                "increment: the docs' multi-path update with ServerValue.increment; transaction: the "
                    + "docs' toggleStar as an SDK's optimistic transaction; rest: the same toggle with ETags over "
                    + "REST; mixed: of every four clients two increment, one transaction, one rest",
                default: defaults.mode.rawValue),
            BenchOption("--hot", nil, "every client stars the same post (the worst case)", default: "off"),
            BenchOption(
                "--cleanup", nil,
                "remove what the run wrote once its checks are done; without it the report ends with what is left and "
                    + "the curl that removes it",
                default: "off"),
            BenchOption(
                "--readers", "N", "connections listening to the top 10 posts by starCount while the run goes",
                default: "4 with --mode mixed, else 0"),
            BenchOption(
                "--namespace", "NAME", "the namespace written to", default: "\"\(defaults.namespace)\""),
            BenchOption(
                "--run", "ID",
                "the run's id, in every name it writes (posts/ID-p0 …): the same id writes the same paths, so two "
                    + "builds compared with it see their posts on the same shards; runs at once need different ids",
                default: "a random one"),
            BenchOption(
                "--chaos", "kill-leader",
                "kill the leader of the hottest shard halfway through and restart it, "
                    + "through --cluster-script", default: "none"),
            BenchOption(
                "--cluster-script", "PATH", "the scripts/cluster that started the nodes, used by --chaos",
                default: defaults.clusterScript),
            BenchOption(
                "--credential-file", "FILE",
                "an administrator's database secret, with which --chaos asks "
                    + "/.cluster for the shards' leaders", default: "the file $HEARTH_CREDENTIAL_FILE names"),
            BenchOption(
                "--slow-log", "LENGTH",
                "list every operation slower than LENGTH at the end: when it ended (seconds into the run), its kind, "
                    + "client, node and attempts (to set against a kill, a restart or a handover in the nodes' logs)",
                default: "off"),
            BenchOption("--json", "FILE", "write the final report as JSON to FILE", default: "none"),
            BenchOption(
                "--html", "FILE", "write the final report as a self-contained HTML page with charts to FILE",
                default: "none"),
        ]
    }()

    /// The help of `hearth bench stars`.
    public static let usage = BenchOption.help(
        synopsis: """
            usage: hearth bench stars [options]
              load-tests running nodes with the docs' star (stars/$uid plus starCount in posts/ and user-posts/),
              then checks that every post's starCount equals its stars; exits 1 if something was lost
            """,
        options: Self.options)
}
