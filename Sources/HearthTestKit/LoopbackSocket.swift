#if canImport(Glibc)
    import Glibc
#endif

/// Opens blocking TCP connections to a test server on 127.0.0.1, shared by the test clients.
enum LoopbackSocket {
    /// A connected socket with a receive timeout (and optionally a small receive buffer, to play a slow reader).
    static func connect(port: Int, timeoutSeconds: Int, receiveBufferBytes: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClient.ClientError(description: "socket() failed") }
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw HTTPTestClient.ClientError(description: "connect to port \(port) failed: errno \(errno)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Reads from `descriptor` into `buffer` until it holds at least `count` bytes.
    /// - Throws: when the peer closes or the receive timeout passes first.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8], atLeast count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else {
                throw HTTPTestClient.ClientError(description: "connection closed or timed out (errno \(errno))")
            }
            buffer += chunk[..<received]
        }
    }
}
