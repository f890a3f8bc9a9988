import HearthCore
package import HearthNet
import HearthWire

/// A REST call as Firebase defines it, parsed and validated from an HTTP request.
///
/// Covers `/<path>.json` (and `/<path>/.priority.json`), the method after `X-HTTP-Method-Override`, the namespace
/// (`ns=` or the host's first label), and the query parameters Firebase documents. Unknown parameters are ignored,
/// as Firebase and its emulator ignore them.
package struct RESTRequest {
    enum Method: String { case get = "GET", put = "PUT", post = "POST", patch = "PATCH", delete = "DELETE" }
    enum PrintMode { case normal, pretty, silent }

    var method: Method
    var namespace: String
    var path: Path
    /// True for `…/.priority.json`: the request reads or writes the priority of `path`.
    var targetsPriority: Bool
    package var parameters: [String: String]
    var printMode: PrintMode
    var exportFormat: Bool
    var shallow: Bool
    /// `shallow=values` (Hearth's own): one level, leaf children with their values and a child object as `{}`; a
    /// stream with it sends that level whole whenever it changes (what the web console browses with).
    package var oneLevel: Bool
    var credential: String?
    var isEventStream: Bool

    /// Parameters whose repetition is a client mistake (`orderBy` twice is ambiguous, not "last one wins").
    static let singleValued: Set<String> = [
        "orderBy", "startAt", "startAfter", "endAt", "endBefore", "equalTo", "limitToFirst", "limitToLast", "print",
        "format", "shallow", "ns", "writeSizeLimit",
    ]

    /// Parses the method, path, namespace and common parameters.
    /// - Throws: `RESTError` with Firebase's status and message.
    package init(_ request: borrowing HTTPRequest, defaultNamespace: String) throws(RESTError) {
        var parameters: [String: String] = [:]
        for (name, value) in request.query {
            if parameters[name] != nil, Self.singleValued.contains(name) {
                throw RESTError(400, "Query parameter \(name) was given more than once; give it once.")
            }
            parameters[name] = value
        }
        self.parameters = parameters

        var methodName = request.method
        // Only a POST is overridden, so only a POST looks for the override.
        if methodName == "POST",
            let override = request.headers["X-HTTP-Method-Override"] ?? parameters["x-http-method-override"]
        {
            methodName = override.uppercased()
        }
        if methodName == "HEAD" { methodName = "GET" }
        guard let method = Method(rawValue: methodName) else {
            throw RESTError(405, "Method \(methodName) is not supported; use GET, PUT, POST, PATCH or DELETE.")
        }
        self.method = method

        let location = try Self.location(request.path)
        self.path = location.path
        self.targetsPriority = location.targetsPriority

        self.namespace = try Self.namespace(parameters["ns"], host: request.headers["Host"], default: defaultNamespace)
        switch parameters["print"] {
        case nil: self.printMode = .normal
        case "pretty": self.printMode = .pretty
        case "silent": self.printMode = .silent
        case let other?: throw RESTError(400, "print must be \"pretty\" or \"silent\", not \"\(other)\".")
        }
        switch parameters["format"] {
        case nil: self.exportFormat = false
        case "export": self.exportFormat = true
        case let other?: throw RESTError(400, "format must be \"export\", not \"\(other)\".")
        }
        switch parameters["shallow"] {
        case nil, "false": (self.shallow, self.oneLevel) = (false, false)
        case "true": (self.shallow, self.oneLevel) = (true, false)
        case "values": (self.shallow, self.oneLevel) = (false, true)
        case let other?: throw RESTError(400, "shallow must be true, false or values, not \"\(other)\".")
        }
        if let timeout = parameters["timeout"] { try Self.validateTimeout(timeout) }

        self.credential = Self.credential(request, parameters: parameters)
        self.isEventStream =
            method == .get && (request.headers["Accept"]?.lowercased().contains("text/event-stream") ?? false)
    }

    /// The location a REST path (`/<path>.json`) names.
    /// - Throws: `RESTError` 404 for a path that does not end in `.json`, 400 for one the write rules refuse.
    static func location(_ path: String) throws(RESTError) -> WriteLocation {
        // An ASCII path (nearly every one) is read from its bytes, where its characters are its bytes: the same
        // suffix, and the same text before it, with no `String` cut from it and no character walked.
        var text = path
        let read = text.withUTF8 { bytes -> PathReading in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .general }
            guard bytes.count >= 5, bytes[(bytes.count - 5)...].elementsEqual(".json".utf8) else { return .notJSON }
            let location = WriteRules.validLocation(
                UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 5)]), below: .root, allowingPriority: true)
            // A path the rules refuse is read the general way, which says which rule.
            return location.map(PathReading.located) ?? .general
        }
        switch read {
        case .located(let location): return location
        case .notJSON: throw RESTError(404, Self.notJSON)
        case .general: break
        }
        guard path.hasSuffix(".json") else { throw RESTError(404, Self.notJSON) }
        do {
            return try WriteRules.location(String(path.dropLast(5)), allowingPriority: true)
        } catch {
            throw RESTError(error)
        }
    }

    static let notJSON = "Not found: REST paths end in .json, for example /users/ada.json."

    /// What reading a path from its bytes found.
    private enum PathReading {
        case located(WriteLocation)
        case notJSON
        /// A path that is not ASCII, or one the rules refuse: read the general way.
        case general
    }

    /// The credential a request presents: `auth=`, `access_token=`, or `Authorization: Bearer …`.
    static func credential(_ request: borrowing HTTPRequest, parameters: [String: String]) -> String? {
        if let credential = parameters["auth"] ?? parameters["access_token"] { return credential }
        guard let authorization = request.headers["Authorization"], authorization.lowercased().hasPrefix("bearer ")
        else { return nil }
        return String(authorization.dropFirst(7))
    }

    /// The request's namespace, by the rule all front ends and the client share (`WireNamespace`).
    static func namespace(_ explicit: String?, host: String?, default defaultNamespace: String) throws(RESTError)
        -> String
    {
        do {
            return try WireNamespace.resolve(explicit: explicit, host: host, default: defaultNamespace)
        } catch {
            throw RESTError(400, error.description)
        }
    }

    /// `timeout=<n>ms|s|min`, at most 15 minutes.
    static func validateTimeout(_ text: String) throws(RESTError) {
        let units: [(String, Double)] = [("ms", 0.001), ("min", 60), ("s", 1)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            if let value = Double(text.dropLast(unit.count)), value > 0, value * scale <= 900 { return }
        }
        throw RESTError(
            400, "timeout must be a positive number with unit ms, s or min, at most 15min (got \"\(text)\").")
    }
}
