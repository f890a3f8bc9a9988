import Dispatch
import HearthCluster
import HearthCore
import HearthNet
import HearthSystem

/// What one member answered on `/.health` and `/.cluster` (or `/.ready`), or why it did not: the raw material of
/// `hearth cluster status` and `wait`, gathered from every member at once so one stalled node costs one timeout.
struct MemberProbe: Sendable {
    /// How the member answered its liveness check.
    enum Health: Sendable, Equatable {
        /// `/.health` answered 200.
        case alive
        /// `/.health` answered with an error: the process runs but says it cannot serve (the reason it gave).
        case failing(String)
        /// Nothing answered (the reason: refused, timed out, …).
        case silent(String)
    }

    let node: ClusterConfiguration.Node
    let health: Health
    /// The member's `/.cluster` document (for `status`), when it answered one.
    let view: JSONValue?
    /// Why there is no view although the member is alive, or why it is not ready (for `wait`).
    let problem: String?

    /// The member's client address, `host:port`.
    var http: String { Self.address(self.node) }

    /// Asks every member of `cluster` in parallel; `readiness` asks `/.ready` instead of `/.cluster`.
    static func probeAll(
        _ cluster: ClusterConfiguration, with client: BlockingHTTPClient, readiness: Bool = false
    ) -> [MemberProbe] {
        let nodes = cluster.nodes
        let results = Lock<[Int: MemberProbe]>([:])
        DispatchQueue.concurrentPerform(iterations: nodes.count) { index in
            let probe = MemberProbe(probing: nodes[index], with: client, readiness: readiness)
            results.withLock { $0[index] = probe }
        }
        return results.withLock { results in
            nodes.indices.map { index in
                results[index] ?? MemberProbe(node: nodes[index], health: .silent("not asked"), view: nil, problem: nil)
            }
        }
    }

    init(node: ClusterConfiguration.Node, health: Health, view: JSONValue?, problem: String?) {
        self.node = node
        self.health = health
        self.view = view
        self.problem = problem
    }

    /// Asks one member: `/.health` first; only a member that answers it is asked the second question.
    init(probing node: ClusterConfiguration.Node, with client: BlockingHTTPClient, readiness: Bool) {
        let address: SocketAddress
        do {
            address = try SocketAddress(host: node.host, port: node.httpPort)
        } catch {
            self.init(node: node, health: .silent(error.message), view: nil, problem: nil)
            return
        }
        let health: HTTPResponse
        do {
            health = try client.request("GET", address, "/.health")
        } catch {
            self.init(node: node, health: .silent(error.message), view: nil, problem: nil)
            return
        }
        let liveness: Health = health.status == 200 ? .alive : .failing(Self.reason(health))
        do {
            let answer = try client.request("GET", address, readiness ? "/.ready" : "/.cluster")
            if readiness || answer.status != 200 {
                self.init(
                    node: node, health: liveness, view: nil, problem: answer.status == 200 ? nil : Self.reason(answer))
            } else {
                let view = try? JSONReader.parseValue(answer.body)
                self.init(
                    node: node, health: liveness, view: view,
                    problem: view == nil ? "its /.cluster answer is not JSON" : nil)
            }
        } catch {
            self.init(node: node, health: liveness, view: nil, problem: error.message)
        }
    }

    /// The message of a Firebase-style error body (`{"error": "…"}`), else the status code.
    private static func reason(_ response: HTTPResponse) -> String {
        if response.status == 401 {
            return "Permission denied: " + ClusterOptions.credentialHint
        }
        if let document = try? JSONReader.parseValue(response.body), let message = document["error"]?.stringValue {
            return message
        }
        return "HTTP \(response.status)"
    }

    static func address(_ node: ClusterConfiguration.Node) -> String {
        node.host.contains(":") ? "[\(node.host)]:\(node.httpPort)" : "\(node.host):\(node.httpPort)"
    }
}
