import HearthCluster
import HearthCore
import HearthNet

/// `hearth cluster status`: asks every member at once and prints the merged report (`--json`: the merged
/// document); exits 0 only when the cluster is healthy, so scripts can poll it.
enum ClusterStatusCommand {
    static func run(_ options: ClusterOptions) -> Int32 {
        let probes = MemberProbe.probeAll(options.cluster, with: options.client)
        let report = ClusterReport(cluster: options.cluster, probes: probes)
        print(
            options.printsJSON ? report.json.jsonString(pretty: true) : report.text,
            terminator: options.printsJSON ? "\n" : "")
        return report.isHealthy ? 0 : 1
    }
}
