import Foundation
import HearthCluster
import HearthCore
import HearthNet

/// `hearth cluster wait [ID…]`: polls the named members' `/.ready` (every member when none is named) until all
/// answer 200, for `scripts/cluster up`, `restart` and `join`; exits 1 after `--within` seconds, saying which
/// members are not ready and why. A named member the member list does not have yet (a node still joining) is
/// waited for too. With `--caught-up` it then also polls every member's `/.cluster` until the whole cluster is
/// caught up within `--max-lag` entries (`ClusterReport.lagProblems`), the check between two members of a
/// rolling upgrade.
enum ClusterWaitCommand {
    static func run(_ options: ClusterOptions) -> Int32 {
        let names = Set(options.members.isEmpty ? options.cluster.nodes.map(\.id.name) : options.members)
        let client = options.client
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .seconds(options.waitSeconds)
        var cluster = options.cluster
        while true {
            let probes = MemberProbe.probeAll(cluster, with: client, readiness: true)
                .filter { names.contains($0.node.id.name) }
            var waiting = probes.compactMap { probe -> String? in
                switch probe.health {
                case .silent(let reason), .failing(let reason): return "\(probe.node.id.name): \(reason)"
                case .alive: return probe.problem.map { "\(probe.node.id.name): \($0)" }
                }
            }
            for name in names.sorted() where cluster.node(NodeID(name)) == nil {
                waiting.append("\(name): not a member of \(cluster.name) (yet)")
            }
            if waiting.isEmpty && options.waitsForCatchUp {
                let report = ClusterReport(cluster: cluster, probes: MemberProbe.probeAll(cluster, with: client))
                waiting = report.lagProblems(maximumLag: options.maximumLag)
            }
            if waiting.isEmpty {
                let seconds =
                    Double((clock.now - started).components.seconds)
                    + Double((clock.now - started).components.attoseconds) / 1e18
                let state =
                    options.waitsForCatchUp ? "ready, and caught up within \(options.maximumLag) entries" : "ready"
                print("\(state): \(names.sorted().joined(separator: " ")) (after \(String(format: "%.1f", seconds)) s)")
                return 0
            }
            if clock.now >= deadline {
                print(
                    "not \(options.waitsForCatchUp ? "ready and caught up" : "ready") after \(options.waitSeconds) s:")
                for line in waiting { print("  \(line)") }
                return 1
            }
            Thread.sleep(forTimeInterval: 0.25)
            if waiting.contains(where: { $0.hasSuffix("(yet)") }) {
                cluster = ClusterMembers.discover(options.cluster, with: client)
            }
        }
    }
}
