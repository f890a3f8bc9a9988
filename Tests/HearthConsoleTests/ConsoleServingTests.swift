import Foundation
import HearthConsole
import HearthNet
import Testing

/// The console's files are served from the binary with their content types, a strict security policy, no sniffing
/// and an ETag; anything else under `/.console` is a 404 and nothing but `GET`/`HEAD` is answered.
@Suite struct ConsoleServingTests {
    static func get(_ path: String, method: String = "GET", headers: [(String, String)] = []) -> HTTPResponse {
        Console.response(to: HTTPRequest(method: method, target: path, path: path, headers: HTTPHeaders(headers)))
    }

    /// The names of the console's own files an HTML or JavaScript text refers to (`/.console/x` or `./x.js`).
    static func references(in text: String) -> [String] {
        let pattern = /(?:"\/\.console\/|'\.\/)([a-z]+\.(?:js|css))["']/
        return text.matches(of: pattern).map { String($0.output.1) }
    }

    /// The page is HTML with the strict policy, nosniff and an ETag at `/.console`, `/.console/` and its name.
    @Test func thePageIsHTMLWithAStrictPolicyAtBothAddresses() {
        for path in ["/.console", "/.console/", "/.console/index.html"] {
            let response = Self.get(path)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            let policy = response.headers["Content-Security-Policy"] ?? ""
            #expect(policy.hasPrefix("default-src 'self'"))
            #expect(!policy.contains("unsafe"))
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
            #expect(response.text.contains("<title>Hearth console</title>"))
        }
    }

    /// Scripts are `text/javascript` and the stylesheet `text/css`, so `nosniff` lets them run.
    @Test func scriptsAndStylesCarryTheirContentTypes() {
        #expect(Self.get("/.console/tree.js").headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(Self.get("/.console/console.css").headers["Content-Type"] == "text/css; charset=utf-8")
    }

    /// Every file the page and its scripts refer to is served (none was left out of the catalog).
    @Test func everyFileThePagesReferToIsServed() {
        var pending = ["index.html"]
        var seen: Set<String> = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            let response = Self.get("/.console/\(name)")
            #expect(response.status == 200, "\(name) is referred to but not served")
            pending += Self.references(in: response.text)
        }
        #expect(seen.contains("tree.js") && seen.contains("rules.js") && seen.contains("cluster.js"))
    }

    /// A browser whose copy is current (its ETag among `If-None-Match`) gets `304` without a body.
    @Test func aCurrentCopyGetsNotModified() {
        let etag = Self.get("/.console/main.js").headers["ETag"] ?? ""
        let again = Self.get("/.console/main.js", headers: [("If-None-Match", "\"other\", \(etag)")])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["ETag"] == etag)
        #expect(Self.get("/.console/main.js", headers: [("If-None-Match", "\"stale\"")]).status == 200)
    }

    /// A name the console does not have is a JSON `404`; anything but `GET`/`HEAD` is `405`.
    @Test func unknownFilesAreNotFoundAndOtherMethodsRefused() {
        for path in ["/.console/nope.js", "/.console/../index.html", "/.console/tree.js/x"] {
            let response = Self.get(path)
            #expect(response.status == 404)
            #expect(response.text.hasPrefix(#"{"error":"#))
        }
        let put = Self.get("/.console", method: "PUT")
        #expect(put.status == 405)
        #expect(put.headers["Allow"] == "GET, HEAD")
    }

    /// Only `/.console` and what is under it are the console, never a data path.
    @Test func onlyTheDotPathBelongsToTheConsole() {
        #expect(Console.serves("/.console"))
        #expect(Console.serves("/.console/tree.js"))
        #expect(!Console.serves("/console.json"))
        #expect(!Console.serves("/.consoles"))
        #expect(!Console.serves("/.console.json"))
    }
}
