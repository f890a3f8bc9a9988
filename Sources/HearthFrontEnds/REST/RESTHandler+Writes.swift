import HearthCore
import HearthDatabase
import HearthNet
import HearthRules
import HearthWire

/// PUT, DELETE, POST and PATCH: everything is checked against the shared `WriteRules` first, so a bad request
/// changes nothing, then against the security rules (`AccessControl`) as it is written.
extension RESTHandler {
    /// Orders a write that needs no turn at its location (`planWrite`), checked against the security rules, then
    /// placed in its shard's order; nil for a read or a compare-and-set, which are not ordered ahead of their answer.
    /// - Throws: what `planWrite` throws, or what refused the write before it was ordered; nothing changes.
    func orderWrite(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) async throws
        -> OrderedRESTWrite?
    {
        guard let plan = try self.planWrite(request, http, identity: identity) else { return nil }
        let pending = try await self.access.submit(identity, namespace: request.namespace, mutations: plan.mutations)
        return OrderedRESTWrite(pending: pending, respond: plan.respond)
    }

    /// A write that needs no turn at its location, checked against the write rules and the size limit (not yet
    /// against the security rules): its mutations, and how its answer is made from its outcome.
    struct WritePlan: Sendable {
        let mutations: [Mutation]
        let respond: @Sendable (WriteOutcome) -> HTTPReply
    }

    /// The plan of a PUT or DELETE without `if-match`, a POST or a PATCH; nil for a read or a compare-and-set,
    /// which are not ordered ahead of their answer.
    /// - Throws: `RESTError.conditionalMethod` for a POST or PATCH with `if-match`, or what the write rules and
    ///   the size limit refuse; nothing changes.
    func planWrite(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) throws -> WritePlan? {
        let isConditional = http.headers["if-match"] != nil
        if request.method == .post || request.method == .patch, isConditional {
            throw RESTError.conditionalMethod(request.method.rawValue)
        }
        switch request.method {
        case .get: return nil
        case .put, .delete:
            guard !isConditional else { return nil }
            let mutation = try self.setMutation(request, http, identity: identity)
            return WritePlan(mutations: [mutation]) { outcome in
                .response(self.setResponse(request, http, identity: identity, outcome: outcome, isConditional: false))
            }
        case .post: return try self.planPush(request, http, identity: identity)
        case .patch: return try self.planUpdate(request, http, identity: identity)
        }
    }

    /// A PUT or DELETE with `if-match`: a compare-and-set, made when its turn at the location comes.
    func compareAndSet(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) async throws
        -> HTTPResponse
    {
        let mutation = try self.setMutation(request, http, identity: identity)
        let expected = http.headers["if-match"] ?? ""
        let condition = WriteCondition(path: request.path, expectedHash: expected == "null_etag" ? "" : expected)
        let outcome = try await self.takingTurns(request, http) {
            try await self.access.write(
                identity, namespace: request.namespace, mutations: [mutation], condition: condition,
                connection: http.connectionID)
        }
        return self.setResponse(request, http, identity: identity, outcome: outcome, isConditional: true)
    }

    /// The mutation of a PUT or DELETE, once it passed the write rules and the size limit.
    func setMutation(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) throws -> Mutation {
        let location = WriteLocation(path: request.path, targetsPriority: request.targetsPriority)
        let mutation = try Self.applyingRules { () throws(WriteRuleError) -> Mutation in
            request.method == .delete
                ? try WriteRules.set(.null, at: location) : try WriteRules.set(body: http.body, at: location)
        }
        try self.checkWriteSize(request, identity: identity, mutations: [mutation], bodyBytes: http.body.count)
        return mutation
    }

    /// The answer to a PUT or DELETE: the value written (or `null`), its ETag when asked for or conditional, or
    /// the 412 of a compare-and-set that failed.
    func setResponse(
        _ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity, outcome: WriteOutcome,
        isConditional: Bool
    ) -> HTTPResponse {
        switch outcome {
        case .conditionFailed(let current):
            return self.conditionFailedResponse(request, identity: identity, current: current)
        case .committed(let resolved):
            var headers = HTTPHeaders()
            let body: [UInt8]
            switch resolved.first {
            case .set(_, let node)?:
                if request.method == .delete {
                    body = Array("null".utf8)
                } else if request.printMode == .silent {
                    body = []
                } else {
                    body = node.jsonBytes(format: .plain, pretty: request.printMode == .pretty)
                }
                if isConditional || http.headers["X-Firebase-ETag"]?.lowercased() == "true" {
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

    private func planPush(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) throws -> WritePlan {
        if request.targetsPriority { throw RESTError.invalidPath("POST cannot target .priority") }
        let name = self.database.nextPushID()
        let location = WriteLocation(path: request.path.appending(Key(unchecked: name)))
        let mutation = try Self.applyingRules { () throws(WriteRuleError) -> Mutation in
            try WriteRules.set(body: http.body, at: location)
        }
        try self.checkWriteSize(request, identity: identity, mutations: [mutation], bodyBytes: http.body.count)
        let body =
            Array("{\"name\":".utf8) + Node(.string(name)).jsonBytes(format: .plain, pretty: false) + [
                UInt8(ascii: "}")
            ]
        return WritePlan(mutations: [mutation]) { _ in .response(self.success(request, body: body)) }
    }

    private func planUpdate(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity) throws -> WritePlan {
        if request.targetsPriority { throw RESTError.invalidPath("PATCH cannot target .priority") }
        let (keys, mutations) = try self.update(http.body, at: request.path)
        try self.checkWriteSize(request, identity: identity, mutations: mutations, bodyBytes: http.body.count)
        // The answer needs only the body of the request, not the whole request (its fields, query and strings).
        let body = http.body
        return WritePlan(mutations: mutations) { outcome in
            guard case .committed(let resolved) = outcome else {
                return .response(self.success(request, body: body))
            }
            // `print=silent` answers with no body: the echo is not written for it.
            guard request.printMode != .silent else { return .response(self.success(request, body: [])) }
            return Self.updateReply(
                keys: keys, resolved, order: Self.answerOrder(of: mutations, resolved), capacity: body.count + 2)
        }
    }

    /// A PATCH's answer as `success` frames a write's body (status 200, `jsonAnswerHeaders`), its echo
    /// (`writeUpdateAnswer`) written straight into the bytes the reactor sends, behind the head: no body array,
    /// `HTTPResponse` or head is made for it on the way.
    static func updateReply(keys: [String], _ resolved: [ResolvedMutation], order: [Int]?, capacity: Int) -> HTTPReply {
        guard let head = Self.jsonAnswerHead else {
            var body: [UInt8] = []
            Self.writeUpdateAnswer(keys: keys, resolved, order: order, to: &body)
            return .response(HTTPResponse(status: 200, headers: Self.jsonAnswerHeaders, body: body))
        }
        return .encoded(
            HTTPEncodedResponse(head: head, bodyCapacity: capacity) {
                Self.writeUpdateAnswer(keys: keys, resolved, order: order, to: &$0)
            })
    }

    /// The head of a write's answer (status 200, `jsonAnswerHeaders`), written once.
    static let jsonAnswerHead = HTTPEncodedHead(status: 200, headers: RESTHandler.jsonAnswerHeaders)

    /// Appends a PATCH's echo to `body`: each member's key with the value it wrote, as Firebase echoes it; the
    /// answer of the member at `index` of the keys is `resolved[order[index]]` (`answerOrder`), or
    /// `resolved[index]` when `order` is nil. One writer for the whole answer, every key and answer read where it
    /// lies: a node and two arrays per member cost a REST star's reactor about a microsecond, and copying each member
    /// out of its array (as iterating, zipping or subscripting does, or putting the answers in the keys' order)
    /// retains nodes the write loop's tree shares with other threads, and a key made a `JSONValue` was retained twice.
    static func writeUpdateAnswer(
        keys: [String], _ resolved: [ResolvedMutation], order: [Int]?, to body: inout [UInt8]
    ) {
        var writer = JSONWriter()
        body.append(UInt8(ascii: "{"))
        keys.withUnsafeBufferPointer { keys in
            resolved.withUnsafeBufferPointer { members in
                for index in 0..<min(keys.count, order?.count ?? members.count) {
                    if index > 0 { body.append(UInt8(ascii: ",")) }
                    writer.writeMemberName(keys[index], to: &body)
                    switch members[order?[index] ?? index] {
                    case .set(_, let node): writer.write(node, format: .plain, to: &body)
                    case .setPriority(_, let priority): body += Node.priorityJSON(priority)
                    }
                }
            }
        }
        body.append(UInt8(ascii: "}"))
    }

    /// A PATCH body's members (keys sorted) and their mutations: read straight from the bytes by a kept reader
    /// (`UpdateReaders`, `WriteRules.update(body:at:)`), or when that declines, through a `JSONValue`, which also
    /// words the error.
    /// - Throws: `RESTError` for a body that is not JSON, not an object, or breaks the write rules.
    private func update(_ body: [UInt8], at base: Path) throws -> (keys: [String], mutations: [Mutation]) {
        if let update = self.updateReaders.update(body: body, at: base) { return update }
        let document: JSONValue
        do {
            document = try JSONReader.parseValue(body)
        } catch {
            throw RESTError.invalidJSON
        }
        guard case .object(let members) = document else {
            throw RESTError(
                400, "Invalid data; couldn't parse JSON object. Are you sending a JSON object with valid key names?")
        }
        let mutations = try Self.applyingRules { () throws(WriteRuleError) -> [Mutation] in
            try WriteRules.update(members, at: base)
        }
        return (members.keys.sorted().map(\.string), mutations)
    }

    /// Where the answer of each of `mutations` (the PATCH's members, keys sorted) lies in `resolved`; nil when
    /// `resolved` answers them in their order already (one shard answers so), or when some member has no answer
    /// (the answers are then taken as they are). A transaction across shards answers in its applying order
    /// (shallowest paths first), so each member is then found by its path and kind (the members' paths never
    /// overlap, so each names one; one answered twice counts its last answer). Positions rather than the answers
    /// themselves: the answers put in order were copied out of their array (a retain of each one's path and value)
    /// into one of their own.
    static func answerOrder(of mutations: [Mutation], _ resolved: [ResolvedMutation]) -> [Int]? {
        // Each member compared where it lies (zipping or subscripting the arrays would copy, and retain, every one).
        let isSameOrder = mutations.withUnsafeBufferPointer { mutations in
            resolved.withUnsafeBufferPointer { resolved in
                (0..<min(mutations.count, resolved.count)).allSatisfy { Self.sameTarget(mutations[$0], resolved[$0]) }
            }
        }
        guard !isSameOrder else { return nil }
        if mutations.count <= Self.scannedMembers { return Self.scanned(mutations, resolved) }
        return Self.tabled(mutations, resolved)
    }

    /// `answerOrder` for many members: each member's answer is the last of `resolved` with its path and kind, found
    /// through tables keyed by path. Nil when a member has none.
    static func tabled(_ mutations: [Mutation], _ resolved: [ResolvedMutation]) -> [Int]? {
        var values: [Path: Int] = [:]
        var priorities: [Path: Int] = [:]
        for (position, mutation) in resolved.enumerated() {
            switch mutation {
            case .set(let path, _): values[path] = position
            case .setPriority(let path, _): priorities[path] = position
            }
        }
        var order: [Int] = []
        order.reserveCapacity(mutations.count)
        for mutation in mutations {
            let position: Int? =
                switch mutation {
                case .set(let path, _): values[path]
                case .setPriority(let path, _): priorities[path]
                }
            // Every member is answered for; were one missing, pairing the rest with the keys would shift them.
            guard let position else { return nil }
            order.append(position)
        }
        return order
    }

    /// Up to this many members, `answerOrder` finds each by scanning the answers (a star's PATCH has four) rather
    /// than through tables keyed by path.
    static let scannedMembers = 16

    /// `answerOrder` for a few members: each member's answer is the last of `resolved` with its path and kind (the
    /// one the tables would keep), found by scanning the answers where they lie: no path hashed. Nil when a member
    /// has none.
    static func scanned(_ mutations: [Mutation], _ resolved: [ResolvedMutation]) -> [Int]? {
        var order: [Int] = []
        order.reserveCapacity(mutations.count)
        let isComplete = mutations.withUnsafeBufferPointer { mutations in
            resolved.withUnsafeBufferPointer { resolved in
                for member in mutations.indices {
                    guard let index = resolved.indices.last(where: { Self.sameTarget(mutations[member], resolved[$0]) })
                    else { return false }
                    order.append(index)
                }
                return true
            }
        }
        return isComplete ? order : nil
    }

    /// Whether `resolved` is what `mutation` became: the same path, and both a value or both a priority.
    static func sameTarget(_ mutation: Mutation, _ resolved: ResolvedMutation) -> Bool {
        // One enum matched at a time: a tuple of the two would be a copy of both, values and all.
        switch mutation {
        case .set(let path, _):
            if case .set(let other, _) = resolved { return path == other }
        case .setPriority(let path, _):
            if case .setPriority(let other, _) = resolved { return path == other }
        }
        return false
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
            self.end(turn, .failure(error))
            throw error
        }
        self.end(turn, .success(outcome))
        return outcome
    }

    /// Ends a compare-and-set's turn with how it was answered.
    func end(_ turn: ConditionalWriteTurn, _ answer: Result<WriteOutcome, any Error>) {
        switch answer {
        case .success(.committed): self.conditionalWrites.answered(turn, .committed)
        case .success(.conditionFailed(let current)):
            self.conditionalWrites.answered(turn, .conditionFailed(etag: Self.etag(of: current)))
        case .failure: self.conditionalWrites.answered(turn, .failed)
        }
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
