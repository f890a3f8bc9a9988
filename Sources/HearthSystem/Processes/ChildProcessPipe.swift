import Glibc

/// Our end of a pipe to a child process's standard stream: read from its output or error, write to its input.
/// Closed when this object goes away, or earlier by `close()` (a child reading its input sees end-of-file then).
///
/// One thread at a time may use a pipe; `close()` must not race a read or write in progress on another thread.
public final class ChildProcessPipe: Sendable {
    /// The descriptor, or -1 once closed.
    private let descriptor: Lock<Int32>

    init(descriptor: Int32) {
        self.descriptor = Lock(descriptor)
    }

    deinit {
        self.close()
    }

    /// The open descriptor; -1 once closed.
    var fileDescriptor: Int32 { self.descriptor.withLock { $0 } }

    /// Closes our end now (a second call does nothing).
    public func close() {
        self.descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Up to `count` bytes, blocking until some arrive; empty at end-of-file (the child closed its end or ended).
    /// - Throws: `SystemError` when the read fails (the pipe was closed).
    public func read(upTo count: Int = 65_536) throws(SystemError) -> [UInt8] {
        let descriptor = self.fileDescriptor
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { buffer, initialized in
            var result: Int
            repeat {
                result = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            } while result < 0 && errno == EINTR
            if result < 0 { failure = errno }
            initialized = max(result, 0)
        }
        guard failure == 0 else { throw Self.failure("read", failure) }
        return bytes
    }

    /// Everything until end-of-file.
    /// - Throws: `SystemError` when a read fails.
    public func readToEnd() throws(SystemError) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try self.read()
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// The next line without its newline; nil at end-of-file before one. Reads a byte at a time, so nothing past the
    /// line is taken from the pipe (for a child whose first lines say it is ready and whose rest nobody reads).
    /// - Throws: `SystemError` when a read fails.
    public func readLine() throws(SystemError) -> String? {
        var line: [UInt8] = []
        while true {
            guard let byte = try self.read(upTo: 1).first else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Writes all of `bytes`, blocking while the pipe is full.
    /// - Throws: `SystemError` when the write fails (`EPIPE`: the child closed its input or ended).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let descriptor = self.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write", errno)
            }
            offset += result
        }
    }

    /// The error for a failed `call`.
    static func failure(_ call: String, _ errorNumber: Int32) -> SystemError {
        SystemError(
            call: call, errorNumber: errorNumber,
            message: "A child process's pipe failed: \(call): \(SystemError.describe(errorNumber)).")
    }
}
