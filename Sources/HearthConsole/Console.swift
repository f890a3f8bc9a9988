public import HearthNet

/// The web console every node serves at `/.console`: static HTML, CSS and JavaScript that talk to the node through
/// its public REST and SSE APIs, so the page itself holds no data and may be served to anyone.
public enum Console {
    /// The dot path the console lives under; no database location starts with a dot, so it never hides data.
    public static let path = "/.console"

    /// Only the node's own files and connections: nothing is fetched from another origin, no inline script runs.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// Whether `path` belongs to the console (`/.console` and everything under `/.console/`).
    public static func serves(_ path: String) -> Bool {
        path == Self.path || path.hasPrefix(Self.path + "/")
    }

    /// The answer to a request for a console path: the file with its security and cache headers, 304 when the
    /// browser's copy is current, 404 for a name the console does not have, 405 for anything but `GET`/`HEAD` (the
    /// server leaves the body out of a `HEAD` answer).
    public static func response(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(request.path) answers GET and HEAD only.")
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        let name = request.path == Self.path ? "index.html" : String(request.path.dropFirst(Self.path.count + 1))
        guard let asset = ConsoleAssets.byName[name.isEmpty ? "index.html" : name] else {
            return .jsonError(status: 404, message: "The console has no file \(request.path); open \(Self.path).")
        }
        var headers = HTTPHeaders([
            ("Content-Security-Policy", Self.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cache-Control", "no-cache"),
            ("ETag", asset.etag),
        ])
        if let candidates = request.headers["If-None-Match"],
            candidates.split(separator: ",").contains(where: { $0.trimmingSpaces == asset.etag })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add("Content-Type", asset.contentType)
        return HTTPResponse(status: 200, headers: headers, body: asset.bytes)
    }
}

extension Substring {
    /// The text without the spaces and tabs around it (an `If-None-Match` list item).
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
