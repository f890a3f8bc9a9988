package import HearthCore
import HearthDatabase
import HearthNet
import HearthNode
package import HearthRules
package import HearthWire

/// `POST /.rules/simulate`: the console's rules playground. An administrator asks whether a read, a set or an update
/// at a path would be allowed as anonymous, as a given `auth`, or as an administrator, against the data as it is
/// now and the rules in force (or a draft sent along); the answer names the rule that decided and its line. Nothing
/// is written.
extension RESTHandler {
    /// The playground's endpoint: a dot path, so it is never a database location.
    static let simulatePath = "/.rules/simulate"

    /// Answers `{"operation": "read"|"set"|"update", "path": "/a/b", "auth": null|{…}, "admin": false, "data": …,
    /// "rules": "<draft rules file>"}` (`?ns=` picks the namespace; without `rules`, the rules in force) with
    /// `{"allowed": …, "rule": "/rules/a/$b/.read"|null, "line": …, "column": …, "explanation": "…"}`. Anyone but an
    /// administrator gets Firebase's 401 before anything else is looked at.
    func simulateResponse(_ http: HTTPRequest) -> HTTPResponse {
        if let refusal = self.administratorRefusal(http) { return refusal }
        do throws(RESTError) {
            let namespace = try RESTRequest.namespace(
                http.query.first { $0.name == "ns" }?.value, host: http.headers["Host"],
                default: self.configuration.defaultNamespace)
            guard http.method == "POST" else { throw RESTError(405, "\(Self.simulatePath) takes POST only.") }
            let simulation = try RuleSimulationRequest(http.body)
            let rules: InstalledRules
            do {
                rules =
                    try simulation.draft.map { text throws(RulesError) in try InstalledRules(text: text) }
                    ?? self.access.rules(namespace)
            } catch {
                throw RESTError(400, error.description)
            }
            let answer = self.simulate(simulation, rules: rules, namespace: namespace)
            return Self.json(String(decoding: answer.jsonBytes(), as: UTF8.self))
        } catch {
            return error.response
        }
    }

    /// The decision for one question: administrators always, otherwise `rules` over the current data.
    private func simulate(_ simulation: RuleSimulationRequest, rules: InstalledRules, namespace: String) -> JSONValue {
        guard case .user(let auth) = simulation.identity else {
            return Self.decision(
                allowed: true, rule: nil, explanation: "Administrators are not subject to the rules.")
        }
        let root = self.database.root(namespace)
        let now = self.database.now()
        let verdict: RuleVerdict
        switch simulation.operation {
        case .read:
            verdict = rules.document.checkRead(at: simulation.path, auth: auth, data: root, now: Double(now))
        case .write(let mutations):
            var after = root
            for mutation in mutations { ShardStateMachine.resolve(mutation, in: after, now: now).apply(to: &after) }
            verdict = rules.document.checkWrite(
                at: mutations.map(\.path), auth: auth, before: root, after: after, now: Double(now))
        }
        let kind = simulation.operation.isRead ? ".read" : ".write"
        guard let decider = verdict.decider else {
            let explanation =
                verdict.isTooCostly
                ? "The rules ran out of their evaluation budget." : "No \(kind) rule grants it."
            return Self.decision(allowed: verdict.isAllowed, rule: nil, explanation: explanation)
        }
        let keys = rules.document.ruleKeys(of: decider)
        let (line, column) = RulesDocument.position(of: keys, in: rules.text)
        let rule = "/" + keys.joined(separator: "/")
        return Self.decision(
            allowed: verdict.isAllowed, rule: (rule, line, column),
            explanation: verdict.isAllowed ? "Allowed by \(rule) (line \(line))." : "Refused by \(rule) (line \(line))."
        )
    }

    /// The playground's answer: the decision, the deciding rule with its line and column (or nulls), and a sentence.
    private static func decision(allowed: Bool, rule: (String, line: Int, column: Int)?, explanation: String)
        -> JSONValue
    {
        .object([
            "allowed": .bool(allowed), "rule": rule.map { .string($0.0) } ?? .null,
            "line": rule.map { .int(Int64($0.line)) } ?? .null, "column": rule.map { .int(Int64($0.column)) } ?? .null,
            "explanation": .string(explanation),
        ])
    }
}

/// A playground question as the console sends it, checked and turned into the mutations a real write would make.
package struct RuleSimulationRequest {
    /// What is simulated: a read, or the mutations of a set or an update.
    package enum Operation {
        case read
        case write([Mutation])

        /// True for a read (whose rules are `.read`, not `.write`).
        package var isRead: Bool {
            if case .read = self { return true }
            return false
        }
    }

    /// The read, or the write's mutations.
    package var operation: Operation
    /// Where the read or write happens.
    package var path: Path
    /// Who asks: anonymous, a given `auth`, or an administrator.
    package var identity: AuthIdentity
    /// A draft rules file to check against instead of the rules in force.
    package var draft: String?

    /// Reads the question from a request body.
    /// - Throws: `RESTError` 400 naming what to fix.
    package init(_ body: [UInt8]) throws(RESTError) {
        guard case .object(let members)? = try? JSONReader.parseValue(body) else {
            throw RESTError(400, #"Send a JSON object: {"operation": "read", "path": "/a/b", "auth": null}."#)
        }
        let location: WriteLocation
        do {
            location = try WriteRules.location(members["path"]?.stringValue ?? "/", allowingPriority: false)
        } catch {
            throw RESTError(error)
        }
        self.path = location.path
        switch members["auth"] ?? .null {
        case .null, .object: self.identity = .user(RuleValue(json: members["auth"] ?? .null))
        default: throw RESTError(400, "auth must be a JSON object (the auth the rules see) or null.")
        }
        if members["admin"] == .bool(true) { self.identity = .admin }
        switch members["rules"] {
        case nil, .null?: self.draft = nil
        case .string(let text)?: self.draft = text
        default: throw RESTError(400, "rules must be the text of a rules file.")
        }
        let data = members["data"] ?? .null
        switch members["operation"]?.stringValue {
        case "read":
            self.operation = .read
        case "set":
            self.operation = .write([
                try RESTHandler.applyingRules { () throws(WriteRuleError) in
                    try WriteRules.set(data, at: location)
                }
            ])
        case "update":
            guard case .object(let children) = data else {
                throw RESTError(400, "An update's data must be an object of child paths and values.")
            }
            self.operation = .write(
                try RESTHandler.applyingRules { () throws(WriteRuleError) in
                    try WriteRules.update(children, at: location.path)
                })
        default:
            throw RESTError(400, #"operation must be "read", "set" or "update"."#)
        }
    }
}
