import Glibc

/// A numeric IPv4 or IPv6 address and a TCP port: where a listener binds or a dial connects.
///
/// Only numeric hosts are accepted: the reactor never blocks, and name resolution would. Its `description` is the
/// usual `host:port`, with IPv6 hosts in brackets (`[::1]:7000`), and `init(parsing:)` reads the same form back.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    package let host: String
    package let port: Int
    /// `AF_INET` or `AF_INET6`.
    let family: Int32

    /// - Throws: `IOError.Code.invalidAddress` when the host is not a numeric IPv4 or IPv6 address or the port is
    ///   outside 0...65535.
    package init(host: String, port: Int) throws(IOError) {
        guard (0...65535).contains(port) else {
            throw IOError(.invalidAddress, "Port \(port) is out of range; use 0...65535.")
        }
        self.host = host
        self.port = port
        self.family = host.contains(":") ? AF_INET6 : AF_INET
        // Validate once here, so `withSocketAddress` cannot fail later.
        _ = try self.withSocketAddress { _, _ in }
    }

    /// Reads `host:port`, or `[host]:port` for IPv6.
    ///
    /// - Throws: `IOError.Code.invalidAddress` naming the expected form.
    package init(parsing text: String) throws(IOError) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw Self.unparsable(text) }
            port = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            throw Self.unparsable(text)
        }
        guard let number = Int(port) else { throw Self.unparsable(text) }
        try self.init(host: String(host), port: number)
    }

    package var description: String {
        self.family == AF_INET6 ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    }

    /// Calls `body` with this address as a `sockaddr` and its length, for `bind` and `connect`.
    func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(IOError) -> Result
    ) throws(IOError) -> Result {
        let port = in_port_t(UInt16(self.port).bigEndian)
        if self.family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port
            guard inet_pton(AF_INET6, self.host, &address.sin6_addr) == 1 else { throw Self.invalidHost(self.host) }
            return try withUnsafePointer(to: &address) { pointer throws(IOError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress throws(IOError) in
                    try body(socketAddress, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port
        guard inet_pton(AF_INET, self.host, &address.sin_addr) == 1 else { throw Self.invalidHost(self.host) }
        return try withUnsafePointer(to: &address) { pointer throws(IOError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress throws(IOError) in
                try body(socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    private static func invalidHost(_ host: String) -> IOError {
        IOError(.invalidAddress, "Host \"\(host)\" is not a numeric IPv4 or IPv6 address; use e.g. 127.0.0.1 or ::1.")
    }

    private static func unparsable(_ text: String) -> IOError {
        IOError(
            .invalidAddress,
            "\"\(text)\" is not an address with a port; write host:port, e.g. 127.0.0.1:7000 or [::1]:7000."
        )
    }
}
