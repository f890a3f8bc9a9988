import Foundation
import Glibc
import HearthSystem

/// Loopback ports that were free a moment ago, for configurations that must name their ports before the
/// processes using them start (a cluster file). Each port is bound at once, all are released together, so the
/// same call never returns one port twice.
///
/// The ports come from below the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`), picked at
/// random and checked by binding: a port handed out by binding port 0 lies inside that range, where any outgoing
/// connection on the machine (a peer link of another test's cluster) may take it before the process meant to
/// listen on it starts. Where the range leaves no room below it, binding port 0 is the fallback.
///
/// A port is handed out once per test process: a cluster member restarting on its fixed ports after a kill must not
/// find another test's node listening on one of them (it was free while the member was down).
public enum FreePorts {
    /// Every port handed out so far in this process.
    private static let handedOut = Lock<Set<Int>>([])

    /// `count` distinct free ports on 127.0.0.1.
    public static func take(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var ports: [Int] = []
        var attempts = 0
        while ports.count < count {
            attempts += 1
            guard attempts <= 100 * count else {
                throw TestClientError(
                    description: "found only \(ports.count) of \(count) free ports in \(attempts) tries")
            }
            let candidate = Self.quietRange.map { Int.random(in: $0) } ?? 0
            if candidate != 0, Self.handedOut.withLock({ $0.contains(candidate) }) { continue }
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw TestClientError(description: "socket() failed: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(candidate).bigEndian)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
                }
            }
            guard bound else {
                let error = errno
                close(socket)
                if candidate != 0 && error == EADDRINUSE { continue }
                throw TestClientError(description: "binding a free port failed: errno \(error)")
            }
            sockets.append(socket)
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        Self.handedOut.withLock { $0.formUnion(ports) }
        return ports
    }

    /// 10000 up to the first ephemeral port, or nil when the ephemeral range starts too low to leave room.
    static let quietRange: ClosedRange<Int>? = {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
            let lowest = Int(first), lowest > 11_000
        else { return nil }
        return 10_000...(lowest - 1)
    }()
}
