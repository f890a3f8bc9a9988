import Foundation
import HearthServer
import HearthStorage
import HearthSystem

/// `hearth serve`: runs a node until SIGTERM or SIGINT, then shuts it down gracefully.
enum Serve {
    static func run(_ arguments: [String]) async throws {
        let configuration = try self.configuration(from: arguments)
        let log = Log(level: configuration.logLevel)
        let runtime = NodeRuntime(configuration: configuration, log: log)
        let task = Task {
            try await runtime.run { port in
                FileHandle.standardOutput.write(Data("hearth listening on http://\(configuration.host):\(port)\n".utf8))
            }
        }
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                log.info("node.stopping", ["signal": number == SIGTERM ? "SIGTERM" : "SIGINT"])
                task.cancel()
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        try await task.value
    }

    static func configuration(from arguments: [String]) throws -> NodeConfiguration {
        var configuration = NodeConfiguration()
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        func integer(_ flag: String, minimum: Int = 0) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= minimum else {
                throw UsageError("\(flag) needs a whole number ≥ \(minimum), not '\(text)'")
            }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--host": configuration.host = try value(flag)
            case "--port": configuration.port = try integer(flag)
            case "--data": configuration.dataDirectory = try value(flag)
            case "--namespace": configuration.defaultNamespace = try value(flag)
            case "--max-write-bytes": configuration.maximumWriteBytes = try integer(flag, minimum: 1)
            case "--max-import-bytes": configuration.maximumImportBytes = try integer(flag, minimum: 1)
            case "--shards": configuration.shardCount = try integer(flag, minimum: 1)
            case "--shard-depth": configuration.shardDepth = try integer(flag, minimum: 1)
            case "--snapshot-every": configuration.snapshotEveryRecords = try integer(flag, minimum: 1)
            case "--snapshot-seconds": configuration.snapshotIntervalSeconds = Double(try integer(flag, minimum: 1))
            case "--keep-alive-seconds": configuration.keepAliveSeconds = Double(try integer(flag, minimum: 1))
            case "--max-outbound-bytes": configuration.outboundBufferLimit = try integer(flag, minimum: 1024)
            case "--max-message-bytes": configuration.maximumWireMessageBytes = try integer(flag, minimum: 1024)
            case "--max-queued-bytes": configuration.maximumWireQueuedBytes = try integer(flag, minimum: 1024)
            case "--fsync":
                let text = try value(flag)
                guard let mode = FsyncMode(rawValue: text) else {
                    throw UsageError("--fsync must be always, batch or off, not '\(text)'")
                }
                configuration.fsync = mode
            case "--log-level":
                let text = try value(flag)
                guard let level = LogLevel(name: text) else {
                    throw UsageError("--log-level must be debug, info, warning, error or critical, not '\(text)'")
                }
                configuration.logLevel = level
            default:
                throw UsageError("unknown option '\(flag)'")
            }
        }
        return configuration
    }
}
