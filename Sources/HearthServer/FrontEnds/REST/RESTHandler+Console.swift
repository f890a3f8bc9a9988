import HearthConsole
import HearthCore
import HearthNet
import HearthRules

/// What the web console asks before it shows anything: who it may act as (`/.console/session`, answered to anyone,
/// so a signed-out page causes no refused request).
extension RESTHandler {
    /// The console's question about the caller, under the console's own dot path.
    static let consoleSessionPath = Console.path + "/session"

    /// `GET /.console/session[?ns=…][&auth=…]`: `{"administrator": …, "ownerAccepted": …, "publicRead": …,
    /// "namespace": "…"}`, answered 200 to anyone and holding no data: whether the credential given (if any) makes an
    /// administrator, whether the node accepts the emulator's `owner` credential (then the console opens as an
    /// administrator at once, as the Emulator Suite UI does), and whether the rules let anyone read the root of the
    /// namespace (then it opens as a visitor). A credential that is no valid token is simply not an administrator's.
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
        ])
        return Self.json(String(decoding: answer.jsonBytes(), as: UTF8.self))
    }
}
