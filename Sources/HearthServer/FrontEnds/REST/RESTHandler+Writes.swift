import HearthCore
import HearthNet
import HearthRules
import HearthWire

/// PUT, DELETE, POST and PATCH: everything is checked against the shared `WriteRules` first, so a bad request
/// changes nothing, then against the security rules (`AccessControl`) as it is written.
extension RESTHandler {
    func set(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) async throws -> HTTPResponse {
        let location = WriteLocation(path: request.path, targetsPriority: request.targetsPriority)
        let mutation = try Self.applyingRules { () throws(WriteRuleError) -> Mutation in
            request.method == .delete
                ? try WriteRules.set(.null, at: location) : try WriteRules.set(body: http.body, at: location)
        }
        try self.checkWriteSize(request, identity: identity, mutations: [mutation], bodyBytes: http.body.count)
        var condition: WriteCondition?
        if let expected = http.headers["if-match"] {
            condition = WriteCondition(path: request.path, expectedHash: expected == "null_etag" ? "" : expected)
        }
        let outcome = try await self.takingTurns(request, http) {
            try await self.access.write(
                identity, namespace: request.namespace, mutations: [mutation], condition: condition)
        }
        switch outcome {
        case .conditionFailed(let current):
            return self.conditionFailedResponse(request, identity: identity, current: current)
        case .committed(let resolved):
            var headers = HTTPHeaders()
            let written = resolved.first
            let body: [UInt8]
            switch written {
            case .set(_, let node)?:
                if request.method == .delete {
                    body = Array("null".utf8)
                } else if request.printMode == .silent {
                    body = []
                } else {
                    body = node.jsonBytes(format: .plain, pretty: request.printMode == .pretty)
                }
                if condition != nil || http.headers["X-Firebase-ETag"]?.lowercased() == "true" {
                    headers.add("ETag", Self.etag(of: node))
                }
            case .setPriority(_, let priority)?:
                body = Node.priorityJSON(priority)
            case nil:
                body = Array("null".utf8)
            }
            return self.success(request, body: body, headers: headers)
        }
    }

    func push(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) async throws -> HTTPResponse {
        if request.targetsPriority { throw RESTError.invalidPath("POST cannot target .priority") }
        let name = self.database.nextPushID()
        let location = WriteLocation(path: request.path.appending(Key(unchecked: name)))
        let mutation = try Self.applyingRules { () throws(WriteRuleError) -> Mutation in
            try WriteRules.set(body: http.body, at: location)
        }
        try self.checkWriteSize(request, identity: identity, mutations: [mutation], bodyBytes: http.body.count)
        _ = try await self.access.write(identity, namespace: request.namespace, mutations: [mutation])
        let body =
            Array("{\"name\":".utf8) + Node(.string(name)).jsonBytes(format: .plain, pretty: false) + [
                UInt8(ascii: "}")
            ]
        return self.success(request, body: body)
    }

    func update(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) async throws -> HTTPResponse {
        if request.targetsPriority { throw RESTError.invalidPath("PATCH cannot target .priority") }
        let document: JSONValue
        do {
            document = try JSONReader.parseValue(http.body)
        } catch {
            throw RESTError.invalidJSON
        }
        guard case .object(let members) = document else {
            throw RESTError(
                400, "Invalid data; couldn't parse JSON object. Are you sending a JSON object with valid key names?")
        }
        let mutations = try Self.applyingRules { () throws(WriteRuleError) -> [Mutation] in
            try WriteRules.update(members, at: request.path)
        }
        try self.checkWriteSize(request, identity: identity, mutations: mutations, bodyBytes: http.body.count)
        let outcome = try await self.access.write(identity, namespace: request.namespace, mutations: mutations)
        guard case .committed(let resolved) = outcome else { return self.success(request, body: http.body) }
        var body = Array("{".utf8)
        for (index, (key, mutation)) in zip(members.keys.sorted(), resolved).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Node(.string(key)).jsonBytes(format: .plain, pretty: false) + [UInt8(ascii: ":")]
            switch mutation {
            case .set(_, let node): body += node.jsonBytes(format: .plain, pretty: false)
            case .setPriority(_, let priority): body += Node.priorityJSON(priority)
            }
        }
        body.append(UInt8(ascii: "}"))
        return self.success(request, body: body)
    }

    /// Runs a compare-and-set (a write with `if-match`) when `conditionalWrites` gives it its turn, and reports how
    /// it ended; any other write runs at once.
    func takingTurns(
        _ request: RESTRequest, _ http: HTTPRequest, _ write: () async throws -> WriteOutcome
    ) async throws -> WriteOutcome {
        guard let expected = http.headers["if-match"] else { return try await write() }
        let turn = await self.conditionalWrites.admit(
            connection: http.connectionID, target: .init(namespace: request.namespace, path: request.path),
            etag: expected)
        let outcome: WriteOutcome
        do {
            outcome = try await write()
        } catch {
            self.conditionalWrites.answered(turn, .failed)
            throw error
        }
        switch outcome {
        case .committed: self.conditionalWrites.answered(turn, .committed)
        case .conditionFailed(let current):
            self.conditionalWrites.answered(turn, .conditionFailed(etag: Self.etag(of: current)))
        }
        return outcome
    }

    /// Firebase's 412 for a compare-and-set whose `if-match` no longer holds: the current ETag, and the current
    /// value only for a caller the rules let read it (one allowed to write but not to read gets an error instead,
    /// so a wrong `if-match` never shows data the caller could not `GET`).
    func conditionFailedResponse(_ request: RESTRequest, identity: AuthIdentity, current: Node) -> HTTPResponse {
        let readable = self.access.mayRead(identity, namespace: request.namespace, path: request.path)
        var response =
            readable
            ? HTTPResponse(
                status: 412, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                body: current.jsonBytes(format: .plain, pretty: false))
            : RESTError.conditionFailedUnreadable.response
        response.headers.add("ETag", Self.etag(of: current))
        return response
    }

    /// Honours `writeSizeLimit`: the bytes sent plus the data the write replaces (at the paths of `mutations`)
    /// must fit the named budget. A write that does not fit is refused as the rules would refuse
    /// it when they do (`401`), so that the size of data a caller may not touch is never told by the answer.
    func checkWriteSize(
        _ request: RESTRequest, identity: AuthIdentity, mutations: [Mutation], bodyBytes: Int
    ) throws(RESTError) {
        guard let name = request.parameters["writeSizeLimit"] else { return }
        let limit = try Self.applyingRules { () throws(WriteRuleError) in try WriteSizeLimit(name: name) }
        guard limit.bytes != nil else { return }
        let root = self.database.root(request.namespace)
        do {
            try limit.check(bodyBytes: bodyBytes, replacing: mutations.map { root.node(at: $0.path) })
        } catch {
            let verdict = self.access.checkWrite(
                identity, namespace: request.namespace, mutations: mutations, root: { root },
                now: self.database.now())
            throw verdict.isAllowed ? RESTError(error) : RESTError.permissionDenied
        }
    }

    /// Runs shared write rules, turning a broken rule into REST's 400 with Firebase's wording.
    static func applyingRules<T>(_ rules: () throws(WriteRuleError) -> T) throws(RESTError) -> T {
        do {
            return try rules()
        } catch {
            throw RESTError(error)
        }
    }
}
