import Foundation
import HearthCluster
import HearthCore
import HearthDatabase
import HearthNet
import HearthServer

/// `hearth backup --server HOST:PORT --out FILE`: saves a consistent cut of the whole database (one node's, or a
/// whole cluster's from any member) as one backup file, while writes go on.
///
/// The node streams the file (`GET /.backup`); this command writes it to a temporary file beside `FILE`, checks its
/// trailer and SHA-256 end to end as it arrives (`BackupChecker`), fsyncs it and only then renames it to `FILE`, so a
/// failure at either end never leaves a file that looks complete.
enum BackupCommand {
    /// The options of `hearth backup`.
    struct Options {
        var server: SocketAddress
        var output: String
        var credential: String?
        var timeout: Duration

        /// Parses `--server HOST:PORT --out FILE [--credential-file FILE] [--config FILE] [--timeout SECONDS]` and
        /// reads the credential (`AdminCredential`: `--credential-file`, `$HEARTH_CREDENTIAL_FILE`, the cluster
        /// file's `databaseSecretFile`).
        /// - Throws: `UsageError` for a missing or malformed option.
        init(parsing arguments: [String]) throws {
            var remaining = arguments[...]
            var server: String?
            var output: String?
            var credentialFile: String?
            var configurationPath: String?
            var seconds = 3600
            func value(_ flag: String) throws -> String {
                guard let value = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
                return value
            }
            while let argument = remaining.popFirst() {
                switch argument {
                case "--server": server = try value(argument)
                case "--out": output = try value(argument)
                case "--credential-file": credentialFile = try value(argument)
                case "--config": configurationPath = try value(argument)
                case "--timeout":
                    guard let number = Int(try value(argument)), number >= 1 else {
                        throw UsageError("--timeout needs a whole number of seconds ≥ 1")
                    }
                    seconds = number
                default: throw UsageError("unknown option '\(argument)'")
                }
            }
            guard let server else { throw UsageError("backup needs --server HOST:PORT: the node to back up") }
            guard let output else { throw UsageError("backup needs --out FILE: where to write the backup") }
            let address = server.hasPrefix("http://") ? String(server.dropFirst(7)) : server
            do {
                self.server = try SocketAddress(parsing: address.hasSuffix("/") ? String(address.dropLast()) : address)
            } catch {
                throw UsageError(
                    "--server takes HOST:PORT (a numeric address, as `hearth serve --host` binds), not \(server)")
            }
            self.output = output
            self.timeout = .seconds(seconds)
            let cluster = try configurationPath.map { try ClusterConfiguration(contentsOfFile: $0) }
            self.credential = try AdminCredential.load(
                file: credentialFile, cluster: cluster, configurationPath: configurationPath)
        }
    }

    /// Runs `hearth backup …`; returns 0 once the file is in place.
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(parsing: arguments)
        let header = try Self.save(options)
        let size = (try? FileManager.default.attributesOfItem(atPath: options.output)[.size] as? Int) ?? 0
        print(Self.summary(header, file: options.output, bytes: size))
        return 0
    }

    /// Downloads the backup into a temporary file, checks it, fsyncs it and renames it to `options.output`.
    static func save(_ options: Options) throws -> BackupHeader {
        let temporary = options.output + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw BackupCommandError("cannot create \(temporary): check the directory exists and is writable")
        }
        do {
            let handle = try Foundation.FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            var checker = BackupChecker()
            var client = BlockingHTTPClient(timeout: options.timeout)
            client.credential = options.credential
            let response = try client.download("/.backup", from: options.server) { bytes in
                try checker.feed(bytes)
                try handle.write(contentsOf: bytes)
            }
            guard response.status == 200 else { throw Self.refusal(response, server: options.server) }
            let header: BackupHeader
            do {
                header = try checker.finish()
            } catch {
                throw BackupCommandError(
                    "the backup \(options.server) sent is incomplete or damaged (\(error.message)); nothing was "
                        + "written to \(options.output). See the node's log (backup.failed) and try again")
            }
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, options.output) == 0 else {
                throw BackupCommandError(
                    "cannot rename \(temporary) to \(options.output): \(String(cString: strerror(errno)))")
            }
            Self.synchronizeDirectory(of: options.output)
            return header
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// What to tell the operator about a refused request.
    private static func refusal(_ response: HTTPResponse, server: SocketAddress) -> BackupCommandError {
        let message =
            (try? JSONReader.parseValue(response.body))?["error"]?.stringValue ?? "HTTP \(response.status)"
        if response.status == 401 {
            return BackupCommandError(
                "\(server) refused the backup (\(message)): a backup reads everything, so it needs an "
                    + "administrator's credential — --credential-file FILE, $\(AdminCredential.variable), or "
                    + "--config FILE naming databaseSecretFile — unless the rules let everyone read the root")
        }
        return BackupCommandError("\(server) refused the backup: \(message)")
    }

    /// Fsyncs the directory holding `path`, so the rename survives a crash.
    private static func synchronizeDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The lines printed once the backup is in place.
    static func summary(_ header: BackupHeader, file: String, bytes: Int, verb: String = "wrote") -> String {
        let written = Date(timeIntervalSince1970: Double(header.writtenMilliseconds) / 1000)
        return """
            \(verb) \(file): \(bytes) bytes, checksum verified
            release \(header.release), cut at \(ISO8601DateFormatter().string(from: written))
            shards \(header.shardCount) (depth \(header.shardDepth)), indexes \(header.cut.map(String.init).joined(separator: ","))
            namespaces \(header.namespaces.isEmpty ? "(none)" : header.namespaces.joined(separator: ", "))
            """
    }
}

/// A backup that could not be saved; the message says why and what to do.
struct BackupCommandError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { self.message }
}
