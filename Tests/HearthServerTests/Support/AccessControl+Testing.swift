import Foundation
import HearthRules
import HearthStorage
import HearthSystem
import HearthTestKit

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNode

extension Database {
    /// Runs `body` over a fresh single node (its own temporary directory, no fsync), closed and removed when `body`
    /// returns: for tests of the write path, rules and write checks without a server.
    static func withFresh(_ body: (Database) async throws -> Void) async throws {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = try TemporaryDirectory().path
        configuration.fsync = .off
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let database = try await Database.open(configuration: configuration, log: Log(level: .critical))
        do {
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}

extension AccessControl {
    /// Runs `body` with the access control of a fresh database (`Database.withFresh`, open rules by default): for
    /// tests of rules and write checks without a server.
    static func withFreshDatabase(_ body: (AccessControl) async throws -> Void) async throws {
        try await Database.withFresh { database in
            try await body(AccessControl(database: database, authenticator: Authenticator(), defaultRules: .open))
        }
    }
}
