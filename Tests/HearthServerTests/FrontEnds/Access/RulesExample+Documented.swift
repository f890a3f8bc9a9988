/// Firebase's documented rules examples ("Understand", "Use conditions", "Validate data", "Query-based rules" and the
/// blog app of the Realtime Database guides), with the outcomes those pages give.
extension RulesExample {
    static let documented: [RulesExample] = [
        .userOwnedData, .validatedString, .widget, .cascade, .notFilters, .recentMessages, .queryBased,
        .tokenClaims, .otherPaths, .noExtraFields, .createOrDeleteOnly, .blogStars,
    ]

    /// "Secure data by user": each user reads and writes only their own node.
    static let userOwnedData = RulesExample(
        name: "user-owned data",
        rules: #"{"rules": {"users": {"$uid": {".read": "$uid === auth.uid", ".write": "$uid === auth.uid"}}}}"#,
        data: #"{"users": {"bob": {"name": "Bob"}}}"#,
        steps: [
            .allow(.user("ada"), .set("/users/ada", #"{"name": "Ada"}"#)),
            .allow(.user("ada"), .read("/users/ada")),
            .allow(.legacy("ada"), .read("/users/ada/name")),
            .deny(.user("ada"), .read("/users/bob")),
            .deny(.user("ada"), .set("/users/bob/name", #""Eve""#)),
            .deny(.user("ada"), .read("/users")),
            .deny(.anonymous, .read("/users/ada")),
            .deny(.anonymous, .set("/users/ada", "null")),
            .allow(.admin, .read("/users")),
        ])

    /// "Validate data": `/foo` takes strings under 100 characters; deletes are not validated.
    static let validatedString = RulesExample(
        name: "validated string",
        rules: #"""
            {"rules": {"foo": {".read": true, ".write": true,
                               ".validate": "newData.isString() && newData.val().length < 100"}}}
            """#,
        data: "null",
        steps: [
            .allow(.anonymous, .set("/foo", #""hello""#)),
            .deny(.anonymous, .set("/foo", "5")),
            .deny(.anonymous, .set("/foo", "\"\(String(repeating: "x", count: 100))\"")),
            .allow(.anonymous, .set("/foo", "\"\(String(repeating: "x", count: 99))\"")),
            .allow(.anonymous, .read("/foo")),
            .allow(.anonymous, .remove("/foo")),
        ])

    /// "Validate data": a widget has a size from 0 to 99 and a color listed in `/valid_colors`; every `.validate`
    /// on the new data's way must pass, a delete needs none.
    static let widget = RulesExample(
        name: "widget",
        rules: #"""
            {
              "rules": {
                ".write": true,
                "widget": {
                  // a valid widget must have attributes "color" and "size"
                  ".validate": "newData.hasChildren(['color', 'size'])",
                  "size": { ".validate": "newData.isNumber() && newData.val() >= 0 && newData.val() <= 99" },
                  "color": { ".validate": "root.child('valid_colors/' + newData.val()).exists()" }
                }
              }
            }
            """#,
        data: #"{"valid_colors": {"red": true, "blue": true}}"#,
        steps: [
            .deny(.anonymous, .set("/widget", #""foo""#)),
            .deny(.anonymous, .set("/widget", #"{"size": 22}"#)),
            .deny(.anonymous, .set("/widget", #"{"size": "foo", "color": "red"}"#)),
            .allow(.anonymous, .set("/widget", #"{"size": 21, "color": "blue"}"#)),
            .allow(.anonymous, .set("/widget/size", "99")),
            .deny(.anonymous, .set("/widget/size", "100")),
            .deny(.anonymous, .set("/widget/color", #""green""#)),
            .allow(.anonymous, .update("/widget", #"{"color": "red", "size": 0}"#)),
            .allow(.anonymous, .remove("/widget")),
            .deny(.anonymous, .set("/widget/size", "99")),
        ])

    /// "Read and write rules cascade": a read granted at `/foo` cannot be taken back at `/foo/bar`.
    static let cascade = RulesExample(
        name: "cascade",
        rules: #"""
            {"rules": {"foo": {".read": "data.child('baz').val() === true", "bar": {".read": false}}}}
            """#,
        data: #"{"foo": {"baz": true, "bar": {"x": 1}}}"#,
        steps: [
            .allow(.anonymous, .read("/foo/bar")),
            .allow(.anonymous, .read("/foo")),
            .allow(.admin, .set("/foo/baz", "false")),
            .deny(.anonymous, .read("/foo/bar")),
            .deny(.anonymous, .read("/foo")),
        ])

    /// "Rules are not filters": a read of a location fails when any child's rule would deny it.
    static let notFilters = RulesExample(
        name: "rules are not filters",
        rules: #"{"rules": {"records": {"rec1": {".read": true}, "rec2": {".read": false}}}}"#,
        data: #"{"records": {"rec1": {"v": 1}, "rec2": {"v": 2}}}"#,
        steps: [
            .deny(.anonymous, .read("/records")),
            .allow(.anonymous, .read("/records/rec1")),
            .deny(.anonymous, .read("/records/rec2")),
        ])

    /// "Use conditions": only the last ten minutes of messages can be read; a message has string content and a
    /// number timestamp (a server timestamp is one).
    static let recentMessages = RulesExample(
        name: "recent messages",
        rules: #"""
            {
              "rules": {
                "messages": {
                  ".write": "auth != null",
                  "$message": {
                    // only messages from the last ten minutes can be read
                    ".read": "data.child('timestamp').val() > (now - 600000)",
                    // new messages must have a string content and a number timestamp
                    ".validate": "newData.hasChildren(['content', 'timestamp']) && newData.child('content').isString() && newData.child('timestamp').isNumber()"
                  }
                }
              }
            }
            """#,
        data: #"{"messages": {"old": {"content": "hello", "timestamp": 1000}}}"#,
        steps: [
            .allow(.user("ada"), .set("/messages/new", #"{"content": "hi", "timestamp": {".sv": "timestamp"}}"#)),
            .allow(.user("ada"), .read("/messages/new")),
            .allow(.anonymous, .read("/messages/new/content")),
            .deny(.user("ada"), .read("/messages/old")),
            .deny(.user("ada"), .set("/messages/m3", #"{"content": 5, "timestamp": 1}"#)),
            .deny(.user("ada"), .set("/messages/m4", #"{"content": "no time"}"#)),
            .deny(.anonymous, .set("/messages/m5", #"{"content": "hi", "timestamp": 1}"#)),
        ])

    /// "Query-based rules": a basket list read only as the owner's own query; messages only in pages of at most 1000.
    static let queryBased = RulesExample(
        name: "query-based rules",
        rules: #"""
            {
              "rules": {
                "baskets": {
                  ".read": "auth.uid !== null && query.orderByChild === 'owner' && query.equalTo === auth.uid",
                  ".indexOn": "owner"
                },
                "messages": { ".read": "query.orderByKey && query.limitToFirst <= 1000" }
              }
            }
            """#,
        data: #"{"baskets": {"b1": {"owner": "ada"}, "b2": {"owner": "bob"}}, "messages": {"m1": "hi"}}"#,
        steps: [
            .deny(.user("ada"), .read("/baskets")),
            .allow(.user("ada"), .read("/baskets", query: #"orderBy="owner"&equalTo="ada""#)),
            .deny(.user("ada"), .read("/baskets", query: #"orderBy="owner"&equalTo="bob""#)),
            .deny(.anonymous, .read("/baskets", query: #"orderBy="owner"&equalTo="ada""#)),
            .deny(.user("ada"), .read("/baskets/b1")),
            .deny(.anonymous, .read("/messages")),
            .allow(.anonymous, .read("/messages", query: #"orderBy="$key"&limitToFirst=1000"#)),
            .allow(.anonymous, .read("/messages", query: #"orderBy="$key"&limitToFirst=10"#)),
            .deny(.anonymous, .read("/messages", query: #"orderBy="$key"&limitToFirst=1001"#)),
            .deny(.anonymous, .read("/messages", query: #"orderBy="$key""#)),
            .deny(.anonymous, .read("/messages", query: #"orderBy="$value"&limitToFirst=5"#)),
        ])

    /// "auth.token": verified Google addresses read the staff area; password sign-ins read theirs.
    static let tokenClaims = RulesExample(
        name: "token claims",
        rules: #"""
            {
              "rules": {
                "staff": { ".read": "auth.token.email_verified == true && auth.token.email.matches(/.*@google.com$/)" },
                "passwords": { ".read": "auth.provider === 'password'" },
                "admins": { ".read": "auth.token.admin === true" }
              }
            }
            """#,
        data: #"{"staff": {"memo": "hi"}, "passwords": 1, "admins": 2}"#,
        steps: [
            .allow(.user("ada", claims: #""email": "ada@google.com", "email_verified": true"#), .read("/staff")),
            .deny(.user("bob", claims: #""email": "bob@example.com", "email_verified": true"#), .read("/staff")),
            .deny(.user("eve", claims: #""email": "eve@google.com", "email_verified": false"#), .read("/staff")),
            .deny(
                .user("mal", claims: #""email": "mal@google.com.evil.com", "email_verified": true"#), .read("/staff")),
            .deny(.anonymous, .read("/staff")),
            .allow(.user("bob"), .read("/passwords")),
            .deny(.legacy("bob"), .read("/passwords")),
            .allow(.user("root", claims: #""admin": true"#), .read("/admins")),
            .deny(.user("bob", claims: #""admin": "true""#), .read("/admins")),
        ])

    /// "Reference data in other paths": writes are open only while `/allow_writes` is true and `/records` is not
    /// marked read-only, and a record names its writer.
    static let otherPaths = RulesExample(
        name: "other paths",
        rules: #"""
            {
              "rules": {
                "records": {
                  "$record": {
                    ".write": "root.child('allow_writes').val() === true && !data.parent().child('readOnly').exists() && newData.child('user_id').val() === auth.uid"
                  }
                }
              }
            }
            """#,
        data: #"{"allow_writes": true}"#,
        steps: [
            .allow(.user("ada"), .set("/records/r1", #"{"user_id": "ada"}"#)),
            .deny(.user("ada"), .set("/records/r2", #"{"user_id": "bob"}"#)),
            .allow(.admin, .set("/allow_writes", "false")),
            .deny(.user("ada"), .set("/records/r3", #"{"user_id": "ada"}"#)),
            .allow(.admin, .update("/", #"{"allow_writes": true, "records/readOnly": true}"#)),
            .deny(.user("ada"), .set("/records/r4", #"{"user_id": "ada"}"#)),
            .allow(.admin, .remove("/records/readOnly")),
            .allow(.user("ada"), .set("/records/r4", #"{"user_id": "ada"}"#)),
        ])

    /// "Validate data": a profile has a string name and a number age and nothing else (`$other` refuses the rest).
    static let noExtraFields = RulesExample(
        name: "no extra fields",
        rules: #"""
            {
              "rules": {
                "user": {
                  "$uid": {
                    ".write": "$uid === auth.uid",
                    ".validate": "newData.hasChildren(['name', 'age'])",
                    "name": { ".validate": "newData.isString()" },
                    "age": { ".validate": "newData.isNumber()" },
                    "$other": { ".validate": false }
                  }
                }
              }
            }
            """#,
        data: "null",
        steps: [
            .allow(.user("ada"), .set("/user/ada", #"{"name": "Ada", "age": 36}"#)),
            .deny(.user("ada"), .set("/user/ada", #"{"name": "Ada", "age": 36, "admin": true}"#)),
            .deny(.user("ada"), .set("/user/ada", #"{"name": "Ada"}"#)),
            .allow(.user("ada"), .update("/user/ada", #"{"age": 37}"#)),
            .deny(.user("ada"), .update("/user/ada", #"{"nickname": "A"}"#)),
            .deny(.user("ada"), .set("/user/ada/age", #""old""#)),
            .deny(.user("bob"), .set("/user/ada/age", "1")),
            .allow(.user("ada"), .remove("/user/ada")),
        ])

    /// "Existing data vs. new data": entries may be created or deleted, never changed in place.
    static let createOrDeleteOnly = RulesExample(
        name: "create or delete only",
        rules: #"{"rules": {"entries": {"$id": {".write": "!data.exists() || !newData.exists()"}}}}"#,
        data: "null",
        steps: [
            .allow(.anonymous, .set("/entries/a", "1")),
            .deny(.anonymous, .set("/entries/a", "2")),
            .deny(.anonymous, .update("/entries", #"{"a": 3, "b": 1}"#)),
            .allow(.anonymous, .remove("/entries/a")),
            .allow(.anonymous, .update("/entries", #"{"a": 3, "b": 1}"#)),
        ])

    /// The blog app: anyone stars a post for themselves — its star and both copies of its count, in one
    /// multi-path update — but only the author edits it; one path denied and nothing is written.
    static let blogStars = RulesExample(
        name: "blog stars",
        rules: #"""
            {
              "rules": {
                "posts": {
                  ".read": true,
                  "$postId": {
                    ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid)",
                    "stars": { "$uid": { ".write": "$uid === auth.uid" } },
                    "starCount": { ".write": "auth != null", ".validate": "newData.isNumber()" }
                  }
                },
                "user-posts": {
                  "$uid": {
                    ".read": true,
                    "$postId": {
                      ".write": "$uid === auth.uid",
                      "stars": { "$starrer": { ".write": "$starrer === auth.uid" } },
                      "starCount": { ".write": "auth != null", ".validate": "newData.isNumber()" }
                    }
                  }
                }
              }
            }
            """#,
        data: #"""
            {"posts": {"p1": {"uid": "bob", "title": "Hi", "starCount": 0}},
             "user-posts": {"bob": {"p1": {"uid": "bob", "title": "Hi", "starCount": 0}}}}
            """#,
        steps: [
            .allow(.user("ada"), .update("/", Self.star(by: "ada", delta: 1))),
            .deny(.user("ada"), .update("/", Self.star(by: "carol", delta: 1))),
            .deny(.anonymous, .update("/", Self.star(by: "ada", delta: 1))),
            .allow(.anonymous, .read("/posts/p1/starCount")),
            .deny(.user("ada"), .set("/posts/p1/title", #""Mine now""#)),
            .allow(.user("bob"), .set("/posts/p1/title", #""Hello""#)),
            .deny(.user("ada"), .set("/posts/p1/starCount", #""many""#)),
            .allow(.user("ada"), .update("/", Self.star(by: "ada", delta: -1))),
            .allow(.user("ada"), .set("/posts/p2", #"{"uid": "ada", "title": "New"}"#)),
        ])

    /// A star (or, with a negative delta, taking it back) of post p1 by `starrer`, as the blog writes it.
    private static func star(by starrer: String, delta: Int) -> String {
        let star = delta > 0 ? "true" : "null"
        return #"""
            {"posts/p1/stars/\#(starrer)": \#(star), "posts/p1/starCount": {".sv": {"increment": \#(delta)}},
             "user-posts/bob/p1/stars/\#(starrer)": \#(star),
             "user-posts/bob/p1/starCount": {".sv": {"increment": \#(delta)}}}
            """#
    }
}
