import Glibc

/// Loopback ports that were free a moment ago, for configurations that must name their ports before the
/// processes using them start (a cluster file). Each port is bound at once, all are released together, so the
/// same call never returns one port twice.
public enum FreePorts {
    /// `count` distinct free ports on 127.0.0.1.
    public static func take(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw TestClientError(description: "socket() failed: errno \(errno)") }
            sockets.append(socket)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
                }
            }
            guard bound else { throw TestClientError(description: "binding a free port failed: errno \(errno)") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
