/// Which database (namespace) a request or connection is for: one rule for the REST API, the realtime protocol and
/// the client library.
///
/// As with Firebase, the `ns` parameter wins; otherwise a host name of two or more labels names the database by its
/// first label (`chat-app.example.com` → `chat-app`, as `chat-app.firebaseio.com` does); otherwise (an IP address,
/// `localhost`) the node's default namespace applies.
public enum WireNamespace {
    /// Firebase namespaces are database names: letters, digits, `-` and `_`, at most 128 bytes.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
            }
    }

    /// The namespace named by `explicit` (the `ns` parameter) or `host` (a `Host` header or URL authority,
    /// with or without its port), else `defaultNamespace`.
    /// - Throws: `WireNamespaceError` when `explicit` is not a valid name.
    public static func resolve(explicit: String?, host: String?, default defaultNamespace: String)
        throws(WireNamespaceError) -> String
    {
        if let explicit {
            guard Self.isValid(explicit) else { throw WireNamespaceError(name: explicit) }
            return explicit
        }
        if let host, let name = Self.named(byHost: host) { return name }
        return defaultNamespace
    }

    /// The namespace a host names by itself: the first label of a host name of two or more labels; nil for IP
    /// addresses and single-label names.
    public static func named(byHost host: String) -> String? {
        // Most hosts name none — an IPv4 address or a single label, with or without a port — and saying so from the
        // bytes costs a few nanoseconds, where splitting characters costs a REST request a microsecond.
        var text = host
        let namesNone = text.withUTF8 { bytes in
            !bytes.contains(UInt8(ascii: ".")) || bytes.allSatisfy(Self.isAddressByte)
        }
        if namesNone { return nil }
        let name = host.hasPrefix("[") ? host : (host.split(separator: ":").first.map(String.init) ?? host)
        let labels = name.split(separator: ".")
        let isAddress = name.allSatisfy { $0.isNumber || $0 == "." } || name.hasPrefix("[")
        guard labels.count >= 2, !isAddress, let first = labels.first, Self.isValid(String(first)) else { return nil }
        return String(first)
    }

    /// A byte of an IPv4 address with its port: a digit, `.` or `:`.
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }
}

/// A namespace that is not a database name.
public struct WireNamespaceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public let name: String

    public var description: String { "Invalid namespace \"\(self.name)\": use letters, digits, '-' and '_'." }
}
