import HearthCore
public import HearthNet
import HearthNode
import HearthRules

/// Deciding on a request's body from its head, on the reactor thread: how much of it may be read, and whether a
/// write is refused before any of it is.
extension RESTHandler {
    /// Bodies up to this size (and the ordinary write limit) are read before anything is decided, as any other
    /// request's (an answer then keeps the connection open); a longer or chunked write is judged on its head first.
    static let bodyReadBeforeDecision = 64 * 1024

    /// The ordinary write limit (`--max-write-bytes`), or the import limit (`--max-import-bytes`) for an
    /// administrator who asks for `writeSizeLimit=unlimited`; anyone else asking for it gets the ordinary limit.
    /// A `PUT`, `POST` or `PATCH` with a body longer than `bodyReadBeforeDecision` (or chunked) whose credential is
    /// refused, or that the rules refuse whatever its data (the `.write` rules on its way read no data and grant
    /// nothing to this caller), is answered at once (`401`, `Connection: close`) and its body is never read.
    public func admitBody(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> HTTPBodyAdmission {
        let ordinary = HTTPBodyAdmission.read(maximumBytes: self.configuration.maximumWriteBytes)
        let declared = headers["Content-Length"].flatMap { Int($0) } ?? 0
        let decidedFirst = min(Self.bodyReadBeforeDecision, self.configuration.maximumWriteBytes)
        guard headers["Transfer-Encoding"] != nil || declared > decidedFirst else { return ordinary }
        let head = HTTPRequest(method: method, target: path, path: path, query: query, headers: headers)
        guard path != Self.rulesPath,
            let request = try? RESTRequest(head, defaultNamespace: self.configuration.defaultNamespace)
        else { return ordinary }
        let below: Bool
        switch request.method {
        case .put: below = false
        case .post, .patch: below = true
        case .get, .delete: return ordinary
        }
        let identity: AuthIdentity
        do {
            identity = try self.identity(of: request).0
        } catch {
            return self.refusedAtHead(method: method, error)
        }
        if identity == .admin {
            let unlimited = request.parameters["writeSizeLimit"] == "unlimited"
            return unlimited ? .read(maximumBytes: self.configuration.maximumImportBytes) : ordinary
        }
        let forecast = self.access.forecastWrite(
            identity, namespace: request.namespace, path: request.path, below: below)
        return forecast == .denied ? self.refusedAtHead(method: method, .permissionDenied) : ordinary
    }

    /// Refuses a request from its head, counting it as an answered request.
    private func refusedAtHead(method: String, _ error: RESTError) -> HTTPBodyAdmission {
        self.metrics.recordRequest(method: method, status: error.status, seconds: 0)
        return .refuse(error.response)
    }
}
