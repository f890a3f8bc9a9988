import CHearthSystem
import Glibc

/// Thin, typed wrappers over the BSD socket calls HearthNet uses; every descriptor they create is non-blocking and
/// close-on-exec.
enum Socket {
    /// Creates a listening TCP socket on `host:port` with `SO_REUSEADDR` and the given backlog.
    static func makeListener(host: String, port: Int, backlog: Int32) throws(IOError) -> Int32 {
        let address = try SocketAddress(host: host, port: port)
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = Int32(try Syscall.call("socket") { Int(Glibc.socket(address.family, socketType, 0)) })
        do {
            var one: Int32 = 1
            try Syscall.call("setsockopt(SO_REUSEADDR)") {
                Int(setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)))
            }
            _ = try address.withSocketAddress { socketAddress, length throws(IOError) in
                try Syscall.call("bind") { Int(Glibc.bind(descriptor, socketAddress, length)) }
            }
            try Syscall.call("listen") { Int(Glibc.listen(descriptor, backlog)) }
        } catch {
            Syscall.close(descriptor)
            throw IOError(
                .syscallFailed,
                "Could not listen on \(host):\(port): \(error.message). "
                    + "Choose another port or stop the process using it.",
                errorNumber: error.errorNumber
            )
        }
        return descriptor
    }

    /// The port a bound socket actually got (useful after binding port 0).
    static func localPort(_ descriptor: Int32) throws(IOError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try Syscall.call("getsockname") {
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Int(getsockname(descriptor, $0, &length)) }
            }
        }
        return Self.describe(storage).port
    }

    /// Accepts one pending connection as a non-blocking socket with `TCP_NODELAY`; `nil` when none is pending.
    static func accept(_ listener: Int32) throws(IOError) -> (descriptor: Int32, remoteAddress: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try Syscall.run("accept4") {
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Int(Glibc.accept(listener, $0, &length)) }
            }
        }
        guard case .done(let value) = result else { return nil }
        let descriptor = Int32(value)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let (host, port) = Self.describe(storage)
        return (descriptor, host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
    }

    /// Reads into `buffer`: `.done(0)` means the peer closed its side.
    static func receive(
        _ descriptor: Int32,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(IOError) -> Syscall.Result {
        try Syscall.run("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// Writes what the kernel takes now, without raising SIGPIPE on a closed peer.
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(IOError) -> Syscall.Result {
        try Syscall.run("send") { Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends FIN while still allowing reads, so a response is not cut off by a reset.
    static func shutdownWrite(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    private static func describe(_ storage: sockaddr_storage) -> (host: String, port: Int) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var addr = address.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                    return (Self.string(text), Int(UInt16(bigEndian: address.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var addr = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                    return (Self.string(text), Int(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
        default:
            return ("unknown", 0)
        }
    }

    private static func string(_ text: [CChar]) -> String {
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
