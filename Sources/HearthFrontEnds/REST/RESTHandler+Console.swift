import HearthConsole
import HearthCore
import HearthDatabase
import HearthNet
import HearthNode
import HearthRules

/// What the web console asks before it shows anything: who it may act as (`/.console/session`, answered to anyone,
/// so a signed-out page causes no refused request) and, for an administrator, which namespaces the node holds
/// (`/.namespaces`, for its namespace picker).
extension RESTHandler {
    /// The console's question about the caller, under the console's own dot path.
    static let consoleSessionPath = Console.path + "/session"
    /// The list of namespaces, for administrators (as `/.cluster`).
    static let namespacesPath = "/.namespaces"

    /// `GET /.console/session[?ns=…][&auth=…]`: `{"administrator": …, "ownerAccepted": …, "publicRead": …,
    /// "namespace": "…", "healthProblem": …, "notReadyReason": …}`, answered 200 to anyone and holding no data:
    /// whether the credential given (if any) makes an administrator, whether the node accepts the emulator's `owner`
    /// credential (then the console opens as an administrator at once, as the Emulator Suite UI does), whether the
    /// rules let anyone read the root of the namespace (then it opens as a visitor), and why `/.health` or `/.ready`
    /// would answer 503 (null when they answer 200), so the node page shows them without a refused request. A
    /// credential that is no valid token is simply not an administrator's.
    func consoleSessionResponse(_ http: HTTPRequest) -> HTTPResponse {
        guard http.method == "GET" || http.method == "HEAD" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(http.path) answers GET and HEAD only.")
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        let namespace: String
        do throws(RESTError) {
            namespace = try RESTRequest.namespace(
                http.query.first { $0.name == "ns" }?.value, host: http.headers["Host"],
                default: self.configuration.defaultNamespace)
        } catch {
            return error.response
        }
        let answer = JSONValue.object([
            "administrator": .bool(self.isAdministrator(http)),
            "ownerAccepted": .bool((try? self.access.authenticate("owner").identity) == .admin),
            "publicRead": .bool(self.access.mayRead(.anonymous, namespace: namespace, path: .root)),
            "namespace": .string(namespace),
            "healthProblem": self.healthProblem.map(JSONValue.string) ?? .null,
            "notReadyReason": self.database.notReadyReason.map(JSONValue.string) ?? .null,
        ])
        return Self.json(String(decoding: answer.jsonBytes(), as: UTF8.self))
    }

    /// `GET /.namespaces?auth=…`: `{"namespaces": ["a", "b"]}`, sorted: the default namespace, every namespace that
    /// holds data on this node and every one given rules of its own (the stored rules' `.settings` left out).
    /// Anyone but an administrator gets Firebase's 401 before anything is said.
    func namespacesResponse(_ http: HTTPRequest) -> HTTPResponse {
        if let refusal = self.administratorRefusal(http) { return refusal }
        guard http.method == "GET" || http.method == "HEAD" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(http.path) answers GET and HEAD only.")
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        let names = self.database.view.namespaces().union(self.access.namespacesWithRules())
            .union([self.configuration.defaultNamespace]).subtracting([AccessControl.settingsNamespace])
        let answer = JSONValue.object(["namespaces": .array(names.sorted().map { .string($0) })])
        return Self.json(String(decoding: answer.jsonBytes(), as: UTF8.self))
    }
}
