import HearthCore

/// One file of the console (HTML, CSS or JavaScript), compiled into the binary with its content type and ETag.
struct ConsoleAsset: Sendable {
    /// The file's name under `/.console/`, for example `tree.js`.
    let name: String
    /// The `Content-Type` it is served with.
    let contentType: String
    /// The file as it is in `Assets/`.
    let bytes: [UInt8]
    /// A strong validator made from the bytes, so a browser keeps its copy until a new build changes the file.
    let etag: String

    /// The asset `name` holding `bytes`, with the content type its extension calls for and its ETag.
    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        self.contentType = Self.contentType(of: name)
        let digest = SHA256.hash(bytes).prefix(12)
        self.etag = "\"" + digest.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined() + "\""
    }

    /// The content type a file's extension calls for; every console file is one of these three kinds.
    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "text/javascript; charset=utf-8"
    }
}

extension String {
    /// The string with leading zeros up to `width` characters (a byte's two hex digits).
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - self.count)) + self
    }
}
