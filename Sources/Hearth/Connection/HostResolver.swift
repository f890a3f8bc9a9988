import Glibc
import HearthNet

/// Turns a host name into the numeric address HearthNet's reactor dials (it never blocks, so it never resolves).
///
/// Numeric hosts pass straight through; a name is looked up with `getaddrinfo`, which blocks, so callers run it off
/// any thread that must stay responsive.
enum HostResolver {
    /// Whether `host` needs a lookup (it is not a numeric IPv4 or IPv6 address).
    static func needsLookup(_ host: String) -> Bool {
        (try? SocketAddress(host: host, port: 0)) == nil
    }

    /// The first TCP address of `host`, with `port`.
    /// - Throws: `RealtimeConnectionError.unresolvedHost` when the name has no address.
    static func address(host: String, port: Int) throws(RealtimeConnectionError) -> SocketAddress {
        if let numeric = try? SocketAddress(host: host, port: port) { return numeric }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        var entry = status == 0 ? list : nil
        while let current = entry {
            if let numeric = Self.numericHost(current.pointee),
                let address = try? SocketAddress(host: numeric, port: port)
            {
                return address
            }
            entry = current.pointee.ai_next
        }
        let reason = status == 0 ? "it has no address" : String(cString: gai_strerror(status))
        throw RealtimeConnectionError(
            .unresolvedHost, "The host \"\(host)\" could not be resolved (\(reason)); check the database URL.")
    }

    private static func numericHost(_ info: addrinfo) -> String? {
        guard let address = info.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = getnameinfo(
            address, info.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
