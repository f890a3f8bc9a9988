import HearthCore
import HearthNet

/// PUT, DELETE, POST and PATCH: parse and validate everything first, so a bad request changes nothing.
extension RESTHandler {
    func set(_ request: RESTRequest, _ http: HTTPRequest) async throws -> HTTPResponse {
        let depth = request.path.count
        let value: WriteValue =
            request.method == .delete ? WriteValue(node: .empty) : try Self.parse(http.body, depth: depth)
        let mutation: Mutation
        if request.targetsPriority {
            try Self.checkPriority(value)
            mutation = .setPriority(request.path, value)
        } else {
            mutation = .set(request.path, value)
        }
        try self.checkWriteSize(request, bodyBytes: http.body.count, paths: [request.path])
        var condition: WriteCondition?
        if let expected = http.headers["if-match"] {
            condition = WriteCondition(path: request.path, expectedHash: expected == "null_etag" ? "" : expected)
        }
        let outcome = try await self.database.write(
            namespace: request.namespace, mutations: [mutation], condition: condition)
        switch outcome {
        case .conditionFailed(let current):
            var headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
            headers.add("ETag", Self.etag(of: current))
            return HTTPResponse(status: 412, headers: headers, body: current.jsonBytes(format: .plain, pretty: false))
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

    func push(_ request: RESTRequest, _ http: HTTPRequest) async throws -> HTTPResponse {
        if request.targetsPriority { throw RESTError.invalidPath("POST cannot target .priority") }
        let value = try Self.parse(http.body, depth: request.path.count + 1)
        try self.checkWriteSize(request, bodyBytes: http.body.count, paths: [])
        let name = self.database.nextPushID()
        let path = request.path.appending(Key(unchecked: name))
        _ = try await self.database.write(namespace: request.namespace, mutations: [.set(path, value)])
        let body =
            Array("{\"name\":".utf8) + Node(.string(name)).jsonBytes(format: .plain, pretty: false) + [
                UInt8(ascii: "}")
            ]
        return self.success(request, body: body)
    }

    func update(_ request: RESTRequest, _ http: HTTPRequest) async throws -> HTTPResponse {
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
        var entries: [(key: String, mutation: Mutation)] = []
        for (key, json) in members.sorted(by: { $0.key < $1.key }) {
            entries.append((key, try Self.mutation(base: request.path, relative: key, json: json)))
        }
        let paths = entries.map(\.mutation.path).sorted()
        for (first, second) in zip(paths, paths.dropFirst()) where first.contains(second) {
            throw RESTError(
                400,
                "Invalid data; update paths \(first) and \(second) overlap: no path may equal or lie inside another in one update."
            )
        }
        try self.checkWriteSize(request, bodyBytes: http.body.count, paths: paths)
        let outcome = try await self.database.write(namespace: request.namespace, mutations: entries.map(\.mutation))
        guard case .committed(let resolved) = outcome else { return self.success(request, body: http.body) }
        var body = Array("{".utf8)
        for (index, (entry, mutation)) in zip(entries, resolved).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Node(.string(entry.key)).jsonBytes(format: .plain, pretty: false) + [UInt8(ascii: ":")]
            switch mutation {
            case .set(_, let node): body += node.jsonBytes(format: .plain, pretty: false)
            case .setPriority(_, let priority): body += Node.priorityJSON(priority)
            }
        }
        body.append(UInt8(ascii: "}"))
        return self.success(request, body: body)
    }

    /// One PATCH member: a relative path (may contain `/`, may end in `/.priority`) and its value.
    private static func mutation(base: Path, relative: String, json: JSONValue) throws(RESTError) -> Mutation {
        var segments = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let isPriority = segments.last == ".priority"
        if isPriority { segments.removeLast() }
        let path: Path
        do {
            var keys = base.keys
            for segment in segments { keys.append(try Key(validating: segment)) }
            try Path.checkLimits(keys)
            path = Path(keys: keys)
        } catch {
            throw RESTError(400, "Invalid data; update key \"\(relative)\" is not a valid path: \(error.message)")
        }
        let value: WriteValue
        do {
            value = try WriteValue(json: json, depth: path.count)
        } catch {
            throw RESTError.invalidData(error)
        }
        if isPriority {
            try Self.checkPriority(value)
            return .setPriority(path, value)
        }
        return .set(path, value)
    }

    static func parse(_ body: [UInt8], depth: Int) throws(RESTError) -> WriteValue {
        do {
            var value = try WriteValue.parseWrite(body, depth: depth)
            if !value.hasServerValues { value.sourceJSON = body }
            return value
        } catch let error as JSONError {
            _ = error
            throw RESTError.invalidJSON
        } catch {
            throw RESTError.invalidData(error)
        }
    }

    /// A priority must be a number, a string, null, or a server value.
    static func checkPriority(_ value: WriteValue) throws(RESTError) {
        if value.hasServerValues { return }
        switch value.node.leafValue {
        case .int?, .double?, .string?: return
        case nil where value.node.isEmpty: return
        default: throw RESTError(400, "Invalid data; a priority must be a number, a string or null.")
        }
    }

    /// Honours `writeSizeLimit`: the bytes sent plus the data the write replaces must fit the named budget.
    func checkWriteSize(_ request: RESTRequest, bodyBytes: Int, paths: [Path]) throws(RESTError) {
        guard let name = request.parameters["writeSizeLimit"] else { return }
        let limits = ["tiny": 1 << 20, "small": 10 << 20, "medium": 30 << 20, "large": 60 << 20]
        if name == "unlimited" { return }
        guard let limit = limits[name] else {
            throw RESTError(400, "writeSizeLimit must be tiny, small, medium, large or unlimited (got \"\(name)\").")
        }
        let root = self.database.root(request.namespace)
        var total = bodyBytes
        for path in paths where total <= limit {
            total += root.node(at: path).estimatedBytes(upTo: limit - total + 1)
        }
        if total > limit {
            throw RESTError(
                400, "Data to write exceeds writeSizeLimit=\(name); use a larger writeSizeLimit or write smaller parts."
            )
        }
    }
}

extension Node {
    /// Roughly how many bytes of JSON this node is, counting no further than `limit`.
    func estimatedBytes(upTo limit: Int) -> Int {
        var total = 0
        var stack: [Node] = [self]
        while let node = stack.popLast(), total <= limit {
            switch node.leafValue {
            case .string(let text)?: total += text.utf8.count + 2
            case .some: total += 8
            case nil:
                for (key, child) in node.children {
                    total += key.string.utf8.count + 4
                    stack.append(child)
                    if total > limit { break }
                }
            }
        }
        return total
    }
}
