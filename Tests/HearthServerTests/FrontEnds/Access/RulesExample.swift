import Testing

/// One of Firebase's documented rules examples as a table: the rules, the data they start on, and requests — each
/// with who makes it and whether Firebase allows it — made in order (an allowed write changes what later steps see).
struct RulesExample: Sendable, CustomTestStringConvertible {
    /// Who makes a request.
    enum Who: Sendable {
        case anonymous
        /// The database secret: rules do not apply.
        case admin
        /// A Firebase Auth ID token for `uid` (signed in with a password), with `claims` (JSON members) added.
        case user(String, claims: String = "")
        /// A legacy HS256 token whose `d` names `uid`.
        case legacy(String)
    }

    /// A REST request: `read` with its query parameters as written in a URL (`orderBy="owner"&equalTo="ada"`).
    enum Request: Sendable {
        case read(String, query: String = "")
        case set(String, String)
        case update(String, String)
        case remove(String)
    }

    struct Step: Sendable {
        var who: Who
        var request: Request
        var isAllowed: Bool

        static func allow(_ who: Who, _ request: Request) -> Step { Step(who: who, request: request, isAllowed: true) }
        static func deny(_ who: Who, _ request: Request) -> Step { Step(who: who, request: request, isAllowed: false) }
    }

    var name: String
    var rules: String
    var data: String
    var steps: [Step]

    var testDescription: String { self.name }
}
