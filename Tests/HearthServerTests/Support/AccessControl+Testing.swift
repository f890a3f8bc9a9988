import Foundation
import HearthRules
import HearthStorage
import HearthSystem
import HearthTestKit

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNode

extension AccessControl {
    /// Runs `body` with the access control of a fresh database (its own temporary directory, no fsync, open rules
    /// by default), removed when `body` returns: for tests of rules and write checks without a server.
    static func withFreshDatabase(_ body: (AccessControl) async throws -> Void) async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Database.open(configuration: configuration, log: Log(level: .critical))
        try await body(AccessControl(database: database, authenticator: Authenticator(), defaultRules: .open))
    }
}
