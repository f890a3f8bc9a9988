/// The help texts of `hearth`, kept in one place: `hearth help` prints them all, `hearth serve --help` and
/// `hearth cluster --help` their own part, and a command line `hearth` cannot run gets one line pointing here.
enum Usage {
    /// Everything: what `hearth help` prints.
    static let text = [Self.overview, Self.serve, Self.cluster, Self.backup, Self.restore, Bench.usage].joined(
        separator: "\n\n")

    /// The commands, and where each one's options are listed.
    static let overview = """
        usage: hearth <command> [options]

        commands:
          serve    run a node (REST, SSE and realtime protocol on one port); `hearth serve --help`
          bench    run a benchmark against a node; `hearth bench --help`
          cluster  look at and operate a running cluster (scripts/cluster wraps it); `hearth cluster --help`
          backup   save a consistent cut of a running node's or cluster's data to a file; `hearth backup --help`
          restore  make a fresh node's data directory from a backup file; `hearth restore --help`
          version  print this build's release, peer protocol and log format versions (also `hearth --version`)
          help     print this, then every command's options
        """

    /// The options of `hearth serve`, each with its meaning and default.
    static let serve = """
        usage: hearth serve [options]

        serve options:
          --host ADDRESS          bind address (default 127.0.0.1)
          --port N                port, 0 picks a free one (default 9000)
          --data DIR              data directory (default ./hearth-data)
          --fsync MODE            always | batch | off (default batch)
          --namespace NAME        namespace for requests that name none (default "default")
          --max-write-bytes N     largest ordinary write body (default 16777216)
          --max-import-bytes N    largest body with writeSizeLimit=unlimited (administrators; default 2147483648)
          --shards N              virtual shards per namespace (default 16)
          --shard-depth N         path depth that picks a shard (default 2)
          --snapshot-every N      snapshot after N log records (default 100000)
          --snapshot-seconds N    or after N seconds if anything changed (default 300)
          --keep-alive-seconds N  interval between SSE keep-alive events (default 30)
          --max-outbound-bytes N  bytes queued for one slow client before it is cut off (default 67108864)
          --max-client-memory N   bytes all clients together may make the node hold (queued answers, requests
                                  being received); past it the biggest holders are closed with a goodbye
                                  (default: an eighth of the machine's memory, at least
                                  --max-import-bytes plus 64 MiB)
          --client-soft-limit-bytes N    queued answers one client may hold past the grace period
                                  (default 8388608)
          --client-soft-limit-seconds N  the grace period (default 60)
          --max-connections N     clients held at once; beyond it the longest-idle keep-alive connection is
                                  closed, or the new client answered 503 (default: the descriptor limit, raised
                                  to its hard limit at start, less 128 kept for logs, snapshots and peers)
          --send-helpers N        threads beside the reactor's that send one event to many listeners at once
                                  (default: the machine's cores less one, at most 3; 0: the reactor alone)
          --min-body-rate N       bytes/s a request body or WebSocket message must keep up after a 5 s
                                  grace, or get 408 (WebSocket: close 1008); 0 turns it off (default 240)
          --body-deadline-seconds N  the longest a whole request body may take (default: no bound)
          --max-message-bytes N   largest realtime-protocol message (default 16777216)
          --max-queued-bytes N    unprocessed realtime requests one client may queue (default 67108864)
          --max-listens-per-session N  listens one realtime connection may hold (default 10000)
          --max-ondisconnects-per-session N  onDisconnect operations one realtime connection may hold (default 1000)
          --max-ondisconnect-bytes N  bytes of one connection's onDisconnect operations together (default 16777216)
          --log-level LEVEL       debug | info | warning | error | critical (default info)

        security options (see docs/security.md):
          --rules FILE            security rules (database.rules.json) for the default namespace, installed at
                                  start; a file with a mistake stops the node with its line and column. Without
                                  it a single node is open to everyone (with a warning) and a cluster member
                                  lets only administrators in, until rules are given (PUT /.settings/rules.json)
          --database-secret-file FILE   database secrets, one per line: administrators' credentials and the
                                  keys of HS256 tokens (the legacy token generator's)
          --allow-unsigned-tokens believe unsigned (alg: none) tokens, as the Firebase Auth emulator issues them
          --project-id ID --auth-keys FILE  accept Firebase Auth ID tokens (RS256) for project ID, signed with a
                                  key in FILE: Google's certificates as JSON (kid → PEM, from
                                  googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com)
                                  or a JWK set; read again every minute (scripts/fetch-auth-keys keeps it fresh)
          --owner-credential accept|refuse  whether the emulator's "owner" credential is an administrator
                                  (default: accept only on a single node listening on loopback without
                                  database secrets or ID-token keys, as the emulator does for firebase-admin;
                                  refuse with --host beyond loopback, secrets, keys, or on a cluster member)

        cluster options (see cluster-config/README.md):
          --config FILE           run as a member of the cluster this file describes
          --node ID               which of the file's nodes this one is (required with --config)
          --fault-injection       let POST /.cluster/partition and /.cluster/heal cut this node's links
                                  (for tests and scripts/cluster partition; never in production)
          With --config, the member's host, HTTP port, shards and data directory come from the file;
          --host, --port and --data override them. The file's secretFile (the cluster secret) and
          databaseSecretFile (the administrators' secrets) are read too.
          --cluster-secret-file FILE
                                  the cluster secret every member proves to its peers (one key a line, at
                                  least 32 bytes; the first signs, every one is accepted, for rotation); needed
                                  with --join, overrides the file's secretFile with --config. Make one with:
                                  head -c 32 /dev/urandom | base64 > FILE; chmod 600 FILE
          --join HOST:PEERPORT    join a running cluster through a member's peer address (needs --node,
                                  --peer-port, --cluster-secret-file and a fixed --port; --host and --data as
                                  for any node; the data directory must be empty). Restart a joined node with
                                  just --data DIR: it remembers its secret files.
          --peer-port N           with --join: where the other members reach this node
          --minimum-peer-release R
                                  refuse peers older than release R (default: the previous minor release,
                                  the oldest the upgrade rule allows); raise it to this release once every
                                  member runs it, so a member left on the old one cannot rejoin
          --catch-up-hold-seconds N
                                  a member that has just started holds its clients' requests (none is refused)
                                  until it has caught up with its shards' leaders, as /.ready says, at most N s
                                  (default 5, at most 600; 0 serves at once; a cluster member's flag)
        """

    /// The subcommands of `hearth cluster` and their options, each with its meaning and default.
    static let cluster = """
        usage: hearth cluster <subcommand> --config FILE [options] [ID…]

        cluster commands (each asks the members over HTTP: those in --config FILE and those that joined since,
        as an administrator: with the first database secret of --credential-file FILE, else of the file
        $HEARTH_CREDENTIAL_FILE names, else of the cluster file's databaseSecretFile):
          hearth cluster status --config FILE [--json]
                                  members (health, release, SWIM status, links) and shards (leader, term, commit, lag);
                                  exits 0 only when every member is up and ready and every shard has a leader
          hearth cluster wait --config FILE [--within S] [--caught-up [--max-lag N]] [ID…]
                                  wait until the members (default: all) answer /.ready with 200 (default 60 s);
                                  with --caught-up, also until every member is up and ready, every shard has a
                                  leader, and every replica of every shard reports its lag: none lacks, or has
                                  yet to apply, more than N entries (default 64) — the rolling upgrade's check
          hearth cluster partition --config FILE A B [C…]
                                  cut A off from each of B… in both directions (needs --fault-injection)
          hearth cluster heal --config FILE
                                  restore every link of every member
          hearth cluster remove --config FILE [--within S] ID
                                  move every replica off ID, then drop it from the member list (default 60 s)
          hearth cluster describe --config FILE
                                  the file's members as lines for scripts: name, root, secret, admin, then
                                  node ID HOST HTTP PEER
          --json                  status: print the members' merged status document as JSON, not tables
          --timeout S             how long one request to one member may take (default 2)
          --credential-file FILE  the administrator's database secret to send (see above)
        """

    /// The options of `hearth backup`.
    static let backup = """
        usage: hearth backup --server HOST:PORT --out FILE [options]

        Saves a consistent cut of the whole database (of one node, or of a whole cluster through any member) while
        writes go on: every write acknowledged before the backup began is in it, and no multi-path write is half in
        it. The file is checked end to end (SHA-256) before it is renamed into place (see docs/operations.md).

        backup options:
          --server HOST:PORT      the node (any member of a cluster) to back up; http:// may precede it
          --out FILE              the backup file to write (a FILE.partial beside it until it is complete)
          --credential-file FILE  an administrator's credential (a database secret, first line); default
                                  $HEARTH_CREDENTIAL_FILE, else the databaseSecretFile of --config; none works
                                  only where the rules let everyone read the root
          --config FILE           a cluster file whose databaseSecretFile holds the credential
          --timeout SECONDS       the longest the whole backup may take (default 3600)
        """

    /// The options of `hearth restore`.
    static let restore = """
        usage: hearth restore --in FILE --data DIR
               hearth restore --in FILE --config FILE [--data-root DIR | --member NAME [--data DIR]]

        Checks the whole backup file (a damaged or cut-short one is refused and nothing is written), then makes the
        data directory of a fresh node holding it; with --config, those of a fresh cluster's members, every member
        starting from the same snapshot with the file's membership. Each directory must be absent or empty.

        restore options:
          --in FILE               the backup file (from `hearth backup`)
          --data DIR              the new node's data directory (with --member: that member's)
          --config FILE           a cluster file, as `hearth serve --config` takes it: restore its members, each
                                  into the directory `hearth serve --config FILE --node NAME` uses (the file's
                                  dataDirectory/NAME, else ./hearth-data/NAME)
          --data-root DIR         with --config: each member into DIR/NAME instead
          --member NAME           with --config: only this member (run it on each member's machine)
        """

    /// The one line printed under a usage error: where the help for what was typed is, so that the error itself
    /// stays on screen.
    static func pointer(for arguments: [String]) -> String {
        switch arguments.first {
        case "serve": "run `hearth serve --help` for its options"
        case "cluster": "run `hearth cluster --help` for its subcommands and options"
        case "bench": "run `hearth bench --help` for the benchmarks and their options"
        case "backup": "run `hearth backup --help` for its options"
        case "restore": "run `hearth restore --help` for its options"
        default: "run `hearth help` for the commands and their options"
        }
    }

    /// Whether the words after a command ask for its help rather than to run it.
    static func asksForHelp(_ arguments: some Sequence<String>) -> Bool {
        arguments.contains { $0 == "--help" || $0 == "-h" }
    }
}

/// A command line we cannot run; the message says which part.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
