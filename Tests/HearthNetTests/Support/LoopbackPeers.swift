import Glibc
import HearthNet
import HearthTestKit

/// Peers that misbehave in controlled ways on 127.0.0.1, for dial tests; plain blocking Glibc sockets, never touched
/// by a reactor.
enum LoopbackPeers {
    /// Whether `::1` can be bound here (some containers have no IPv6 loopback).
    static let supportsIPv6: Bool = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    /// A TCP socket bound to 127.0.0.1 on a free port.
    static func boundSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestClientError(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw TestClientError(description: "bind to 127.0.0.1:0 failed: errno \(errno)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A loopback port that is bound but not listening, so nothing else can take it: connecting is refused (the kernel
/// answers with a reset) until `listen()` is called.
final class ReservedPort {
    let port: Int
    private let descriptor: Int32
    private var isClosed = false

    init() throws {
        (self.descriptor, self.port) = try LoopbackPeers.boundSocket()
    }

    deinit {
        self.close()
    }

    /// Closes the socket; once listening, the connections nobody accepted are reset.
    func close() {
        guard !self.isClosed else { return }
        self.isClosed = true
        Glibc.close(self.descriptor)
    }

    var address: SocketAddress {
        get throws { try SocketAddress(host: "127.0.0.1", port: self.port) }
    }

    /// Starts listening; connections then complete in the kernel even though nobody accepts them.
    func listen() throws {
        guard Glibc.listen(self.descriptor, 16) == 0 else {
            throw TestClientError(description: "listen failed: errno \(errno)")
        }
    }
}

/// A loopback listener whose accept queue is full and never drained. Linux then drops further SYNs (with
/// `tcp_abort_on_overflow` off, the default), so a dial to it neither completes nor fails until the client gives up:
/// the one reliable loopback way to make a connect time out.
final class UnacceptingListener {
    let port: Int
    private let descriptor: Int32
    private var queued: [Int32] = []

    init() throws {
        (self.descriptor, self.port) = try LoopbackPeers.boundSocket()
        guard Glibc.listen(self.descriptor, 0) == 0 else {
            throw TestClientError(description: "listen failed: errno \(errno)")
        }
        // Backlog 0 still queues a connection or so; fill the queue until a connect no longer completes.
        for _ in 0..<8 {
            let probe = try self.connectProbe()
            var poller = pollfd(fd: probe, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 200) == 1 else {
                close(probe)
                return
            }
            self.queued.append(probe)
        }
        throw TestClientError(description: "the accept queue of a backlog-0 listener never filled")
    }

    deinit {
        for probe in self.queued { close(probe) }
        close(self.descriptor)
    }

    var address: SocketAddress {
        get throws { try SocketAddress(host: "127.0.0.1", port: self.port) }
    }

    private func connectProbe() throws -> Int32 {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { throw TestClientError(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(self.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return probe
    }
}
