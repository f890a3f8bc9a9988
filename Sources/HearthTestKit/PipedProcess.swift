public import Foundation

/// A child process whose standard output the test reads line by line (its standard error goes to the test's):
/// how `ServerProcess` waits for a node's "listening" line and `ClientProbeProcess` for a probe's next step.
public enum PipedProcess {
    /// Starts the program at `path` with `arguments`; returns it and the pipe its output comes through.
    public static func launch(_ path: String, _ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        return (process, output)
    }

    /// The next line of `handle` without its newline (blocking); nil when the output ends first.
    public static func readLine(_ handle: FileHandle) -> String? {
        var line = [UInt8]()
        while true {
            guard let byte = handle.readData(ofLength: 1).first else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}
