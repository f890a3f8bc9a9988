import HearthCore
import HearthDatabase
import HearthNet
import HearthRules

/// GET: plain reads, queries, shallow reads, export format, ETags and SSE streams.
///
/// Every one of them first passes the database's read barrier, so it reflects every write acknowledged before it on
/// any node of a cluster (an SSE stream's first `put` included: it registers after the barrier).
extension RESTHandler {
    /// The most children a `shallow=values` stream may watch (its `limitToFirst` or `limitToLast`).
    static let oneLevelStreamLimit = 10_000

    func get(_ request: RESTRequest, _ http: HTTPRequest, identity: AuthIdentity, expires: Double?) async throws
        -> HTTPReply
    {
        let query = try self.query(for: request)
        if request.isEventStream, request.oneLevel, (query?.limit?.count ?? Int.max) > Self.oneLevelStreamLimit {
            // Such a stream sends its whole level again on every change under it: without a page, one client could
            // make every write under a large node cost the node a serialisation of all of its children.
            throw RESTError(
                400,
                "A shallow=values stream must name a page of at most \(Self.oneLevelStreamLimit) children "
                    + "(limitToFirst or limitToLast): it sends the whole level again on every change under it.")
        }
        try await self.database.readBarrier(namespace: request.namespace, path: request.path)
        try self.authorizeRead(identity, request, query: query)
        if request.isEventStream {
            let stream = SSEStream(
                namespace: request.namespace, path: request.path, identity: identity, query: query,
                evaluate: { [access = self.access, namespace = request.namespace, path = request.path] in
                    access.evaluate($0, namespace: namespace, path: path, node: $1)
                }, exportFormat: request.exportFormat, oneLevel: request.oneLevel, view: self.database.view)
            stream.register()
            if let expires {
                let seconds = max(0, expires - Double(self.database.now()) / 1000)
                Task { [weak stream] in
                    try await Task.sleep(for: .seconds(seconds))
                    stream?.revoke(expired: true)
                }
            }
            let headers = HTTPHeaders([
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                ("Access-Control-Allow-Origin", "*"),
            ])
            return .stream(HTTPResponse(status: 200, headers: headers), stream)
        }

        let node = self.database.root(request.namespace).node(at: request.path)
        let etag = Self.etag(of: node)
        // Firebase answers `if-none-match` with the current ETag whether or not it matches (firebase-admin's
        // `get_if_changed` keeps it to ask again), and `X-Firebase-ETag: true` with it too.
        let candidate = http.headers["if-none-match"]
        var headers = HTTPHeaders()
        if candidate != nil || http.headers["X-Firebase-ETag"]?.lowercased() == "true" {
            headers.add("ETag", etag)
            self.conditionalWrites.read(
                connection: http.connectionID, target: .init(namespace: request.namespace, path: request.path))
        }
        if let candidate, candidate == etag {
            return .response(HTTPResponse(status: 304, headers: headers))
        }
        let body: [UInt8]
        if request.targetsPriority {
            body = Node.priorityJSON(node.priority)
        } else if request.shallow {
            body = (query.map { self.evaluate($0, request, node) } ?? node).shallowJSONBytes()
        } else if request.oneLevel {
            body = (query.map { self.evaluate($0, request, node) } ?? node).oneLevelJSONBytes()
        } else {
            let result = query.map { self.evaluate($0, request, node) } ?? node
            body = result.jsonBytes(
                format: request.exportFormat ? .export : .plain, pretty: request.printMode == .pretty)
        }
        return .response(self.success(request, body: body, headers: headers))
    }

    private func evaluate(_ query: QuerySpec, _ request: RESTRequest, _ node: Node) -> Node {
        self.access.evaluate(query, namespace: request.namespace, path: request.path, node: node)
    }

    /// The query a GET asks for. `shallow=true` with `limitToFirst`/`startAfter` and no `orderBy` is the key-ordered
    /// paging firebase-tools uses, with an unquoted key allowed in `startAfter`.
    func query(for request: RESTRequest) throws(RESTError) -> QuerySpec? {
        var parameters = request.parameters
        if request.shallow, parameters["orderBy"] == nil,
            parameters["limitToFirst"] != nil || parameters["startAfter"] != nil
        {
            parameters["orderBy"] = "\"$key\""
            if let after = parameters["startAfter"], (try? JSONReader.parseValue(after)) == nil {
                parameters["startAfter"] = String(
                    decoding: Node(.string(after)).jsonBytes(format: .plain, pretty: false), as: UTF8.self)
            }
        }
        do {
            return try QuerySpec.rest(parameters: parameters) { text in try JSONReader.parseValue(text) }
        } catch {
            throw RESTError(400, error.message)
        }
    }

    /// Firebase's ETag: the node hash, or `null_etag` where nothing is stored.
    static func etag(of node: Node) -> String {
        node.isEmpty ? "null_etag" : node.hash
    }

    /// A 200 with a JSON body, or 204 for `print=silent`; JSONP and `download=` applied.
    func success(_ request: RESTRequest, body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        if request.printMode == .silent {
            return HTTPResponse(status: 204, headers: headers)
        }
        if headers.count == 0, request.method != .get {
            // A write's answer (no JSONP, no download) carries exactly these fields: made once, not per answer.
            return HTTPResponse(status: 200, headers: Self.jsonAnswerHeaders, body: body)
        }
        var body = body
        // Room for the two fields every answer gets, in one allocation rather than two as the array grows.
        headers.reserveCapacity(headers.count + 2)
        if request.method == .get, let callback = request.parameters["callback"], Self.isJavaScriptName(callback) {
            headers.add("Content-Type", "application/javascript; charset=utf-8")
            body = Array("\(callback)(".utf8) + body + Array(");".utf8)
        } else {
            headers.add("Content-Type", "application/json; charset=utf-8")
        }
        if request.method == .get, let download = request.parameters["download"] {
            // A file name from the query: no quote or backslash to end the quoted string, no control character.
            let safe = String(
                String.UnicodeScalarView(
                    download.unicodeScalars.filter {
                        $0 != "\"" && $0 != "\\" && $0.properties.generalCategory != .control
                    }))
            headers.add("Content-Disposition", "attachment; filename=\"\(safe)\"")
        }
        headers.add("Access-Control-Allow-Origin", "*")
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    /// The fields of a plain JSON answer, in the order `success` adds them.
    static let jsonAnswerHeaders = HTTPHeaders([
        ("Content-Type", "application/json; charset=utf-8"), ("Access-Control-Allow-Origin", "*"),
    ])

    private static func isJavaScriptName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_$.".unicodeScalars.contains($0))
            }
    }
}
