import Dispatch
import Foundation
import HearthCore
import HearthNet
import HearthSystem

/// `--chaos kill-leader`: halfway through the run, the leader of the shard that committed the most since the run
/// began is killed with `scripts/cluster kill`, kept down, and started again with `scripts/cluster restart`.
struct StarChaos: Sendable {
    /// `scripts/cluster`, which started the nodes.
    let script: String
    let nodes: [StarsOptions.Node]
    let down: Duration
    /// An administrator's database secret: `/.cluster`, where the leaders are read, answers administrators only.
    let credential: String?

    /// Each shard's leader and commit index, from the first node whose `/.cluster` answers.
    func shards() -> [Int: (leader: String, commit: Int64)] {
        var client = BlockingHTTPClient(timeout: .seconds(2))
        client.credential = self.credential
        for node in self.nodes {
            guard let address = try? SocketAddress(parsing: "\(node)"),
                let response = try? client.request("GET", address, "/.cluster"),
                response.status == 200, let json = try? JSONReader.parseValue(response.body),
                case .array(let shards)? = json["shards"]
            else { continue }
            var result: [Int: (leader: String, commit: Int64)] = [:]
            for shard in shards {
                guard case .int(let index)? = shard["shard"], case .string(let leader)? = shard["leader"],
                    case .int(let commit)? = shard["commit"]
                else { continue }
                result[Int(index)] = (leader, commit)
            }
            return result
        }
        return [:]
    }

    /// The shard that committed the most between two readings, and its leader now.
    static func hottest(
        before: [Int: (leader: String, commit: Int64)], after: [Int: (leader: String, commit: Int64)]
    ) -> (shard: Int, leader: String)? {
        let growth = after.map { shard, now in (shard, now.leader, now.commit - (before[shard]?.commit ?? 0)) }
        guard let hottest = growth.max(by: { ($0.2, -$0.0) < ($1.2, -$1.0) }) else { return nil }
        return (hottest.0, hottest.1)
    }

    /// Runs `scripts/cluster ARGUMENTS` on a thread of its own (it blocks until the script ends); nil when it
    /// succeeded, else what went wrong.
    func cluster(_ arguments: [String]) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let finished = try ChildProcess.run(
                        self.script, arguments, standardOutput: .discard, standardError: .pipe)
                    let failure =
                        finished.termination == .exited(0)
                        ? nil
                        : "scripts/cluster \(arguments.joined(separator: " ")) failed (\(finished.termination)): "
                            + String(decoding: finished.error, as: UTF8.self)
                            .trimmingCharacters(in: .whitespacesAndNewlines)
                    continuation.resume(returning: failure)
                } catch {
                    continuation.resume(returning: "could not run \(self.script): \(error)")
                }
            }
        }
    }
}
