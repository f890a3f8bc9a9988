import HearthCore
import HearthDatabase
import HearthNet
import HearthNode
import HearthRules
import HearthSystem
import HearthWire

/// Who a REST caller is, the rules endpoint, and ending the SSE streams the rules stop allowing.
extension RESTHandler {
    static let rulesPath = "/.settings/rules.json"

    /// The caller's identity from its credential (`auth=`, `access_token=`, `Authorization: Bearer`), and when it
    /// expires. An administrator may act as another `auth` with `auth_variable_override` (JSON; `null` for an
    /// unauthenticated caller), as firebase-admin's `databaseAuthVariableOverride` asks.
    /// - Throws: `RESTError` 401 for a credential that is not valid, or an override from a caller who is not an
    ///   administrator.
    func identity(of request: RESTRequest) throws(RESTError) -> (AuthIdentity, expires: Double?) {
        let authentication: Authentication
        do {
            authentication = try self.access.authenticate(request.credential)
        } catch {
            self.log.info("rest.token_refused", ["reason": error.message])
            throw error.code == .expiredToken
                ? RESTError(401, "Auth token is expired") : RESTError(401, "Could not parse auth token.")
        }
        guard let override = request.parameters["auth_variable_override"] else {
            return (authentication.identity, authentication.expires)
        }
        guard authentication.identity == .admin else { throw RESTError.permissionDenied }
        switch try? JSONReader.parseValue(Array(override.utf8)) {
        case .null?, .object?:
            let json = (try? JSONReader.parseValue(Array(override.utf8))) ?? .null
            return (.user(RuleValue(json: json)), authentication.expires)
        default:
            throw RESTError(400, "auth_variable_override must be a JSON object or null.")
        }
    }

    /// Refuses a read the rules do not allow.
    func authorizeRead(_ identity: AuthIdentity, _ request: RESTRequest, query: QuerySpec?) throws(RESTError) {
        guard self.access.mayRead(identity, namespace: request.namespace, path: request.path, query: query) else {
            throw RESTError.permissionDenied
        }
    }

    /// `GET` and `PUT /.settings/rules.json?ns=…`: an administrator reads or replaces a namespace's rules (what
    /// `firebase deploy --only database` does against the emulator). A rules file with a mistake is refused whole
    /// with Firebase's message, and the rules in force stay.
    func rulesResponse(_ http: HTTPRequest) async -> HTTPResponse {
        do {
            let namespace = try RESTRequest.namespace(
                http.query.first { $0.name == "ns" }?.value, host: http.headers["Host"],
                default: self.configuration.defaultNamespace)
            let credential = RESTRequest.credential(
                http, parameters: Dictionary(http.query, uniquingKeysWith: { first, _ in first }))
            let identity: AuthIdentity
            do {
                identity = try self.access.authenticate(credential).identity
            } catch {
                throw RESTError(401, "Could not parse auth token.")
            }
            guard identity == .admin else { throw RESTError.permissionDenied }
            switch http.method {
            case "GET":
                let text = self.access.rules(namespace).text
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                    body: Array(text.utf8))
            case "PUT":
                let text = String(decoding: http.body, as: UTF8.self)
                do {
                    try await self.access.install(text, namespace: namespace)
                } catch let error as RulesError {
                    throw RESTError(400, error.description)
                }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                    body: Array("{\"status\":\"ok\"}".utf8))
            default:
                throw RESTError(405, "/.settings/rules.json takes GET and PUT, not \(http.method).")
            }
        } catch let error as RESTError {
            return error.response
        } catch let error as any WriteUnavailableError {
            return RESTError(503, error.description).response
        } catch {
            return RESTError(503, "The rules could not be saved; retry shortly.").response
        }
    }

    /// Ends every SSE stream of `namespace` whose client may no longer read it.
    func revokeStreams(in namespace: String) {
        var streams: [SSEStream] = []
        self.database.view.forEachListener { listener in
            if let stream = listener as? SSEStream, stream.namespace == namespace { streams.append(stream) }
        }
        for stream in streams
        where !self.access.mayRead(stream.identity, namespace: namespace, path: stream.path, query: stream.query) {
            stream.revoke(expired: false)
        }
    }
}
