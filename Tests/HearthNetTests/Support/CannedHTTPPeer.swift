import Glibc
import HearthSystem
import HearthTestKit

/// A loopback HTTP peer on a plain blocking socket with a thread of its own (no reactor, no Swift concurrency
/// pool): it answers the connections it accepts, in order, with its canned responses, sent seven bytes at a time,
/// closes each, and records every request as it arrived. Client tests use it so that what they check never waits
/// for a pool the rest of the suite keeps busy.
final class CannedHTTPPeer: Sendable {
    let port: Int
    /// Every request received, head and body, in arrival order.
    let requests = Recorder<String>()
    private let descriptor: Int32

    init(responses: [String]) throws {
        let (descriptor, port) = try LoopbackPeers.boundSocket()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw TestClientError(description: "listen failed: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = port
        let requests = self.requests
        try DedicatedThread.start(name: "canned-http") {
            for response in responses {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                requests.append(Self.readRequest(connection))
                let bytes = Array(response.utf8)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + 7)
                    let sent = bytes[offset..<end].withUnsafeBytes {
                        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard sent > 0 else { break }
                    offset += sent
                }
                close(connection)
            }
        }.detach()
    }

    deinit {
        // Wakes a thread still blocked in accept (Linux answers it with EINVAL), then releases the port.
        shutdown(self.descriptor, Int32(SHUT_RDWR))
        close(self.descriptor)
    }

    /// Reads one request: its head, then as many body bytes as its `Content-Length` says.
    private static func readRequest(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let headEnd = Self.endOfHead(received) {
                let head = String(decoding: received[..<headEnd], as: UTF8.self).lowercased()
                let lengthLine = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                let length = lengthLine.flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " }) } ?? 0
                if received.count - (headEnd + 4) >= length { return String(decoding: received, as: UTF8.self) }
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return String(decoding: received, as: UTF8.self) }
            received += buffer[..<count]
        }
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
    }
}
