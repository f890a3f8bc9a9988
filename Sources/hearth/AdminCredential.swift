import Foundation
import HearthCluster

/// Where the administrator's commands (`hearth cluster …`, `hearth backup`) find the credential they send: the first
/// database secret of `--credential-file`, else of the file `$HEARTH_CREDENTIAL_FILE` names, else of the cluster
/// file's `databaseSecretFile`; none when none is named.
enum AdminCredential {
    /// The environment variable that names a credential file when `--credential-file` is not given.
    static let variable = "HEARTH_CREDENTIAL_FILE"

    /// Reads the credential from where the command line (`file`), the environment or `cluster` (read from
    /// `configurationPath`) says.
    /// - Throws: `UsageError` when the file named cannot be read or holds no secret.
    static func load(file: String?, cluster: ClusterConfiguration?, configurationPath: String?) throws -> String? {
        if let file {
            return try Serve.secrets(fromFile: file, for: "--credential-file").first
        }
        if let file = ProcessInfo.processInfo.environment[Self.variable], !file.isEmpty {
            return try Serve.secrets(fromFile: file, for: "$" + Self.variable).first
        }
        if let file = cluster?.databaseSecretFile {
            return try Serve.secrets(
                fromFile: file, for: "databaseSecretFile in \(configurationPath ?? "the cluster file")"
            )
            .first
        }
        return nil
    }
}
