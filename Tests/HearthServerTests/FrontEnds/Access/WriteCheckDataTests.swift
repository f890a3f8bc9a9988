import Foundation
import HearthCore
import HearthRules
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNode
@testable import HearthServer

/// A write check reads the stored data only when the rules can see it: under open rules, or for an administrator,
/// the write never waits for the read view's lock; rules that read `data` still see exactly what is stored.
@Suite struct WriteCheckDataTests {
    /// Checks a set of `/posts/p1/title` as `identity`, against `stored`; returns the verdict and how often the
    /// check asked for the data.
    private static func check(_ access: AccessControl, as identity: AuthIdentity, stored: Node) throws
        -> (allowed: Bool, reads: Int)
    {
        let reads = Mutex(0)
        let path = try Path(validating: "/posts/p1/title")
        let verdict = access.checkWrite(
            identity, namespace: "default", mutations: [.set(path, WriteValue(node: Node(.string("Hi"))))],
            root: {
                reads.withLock { $0 += 1 }
                return stored
            }, now: 0)
        return (verdict.isAllowed, reads.withLock { $0 })
    }

    @Test func openRulesAndAdministratorsNeverReadTheData() async throws {
        try await AccessControl.withFreshDatabase { access in
            let anonymous = try Self.check(access, as: .anonymous, stored: .empty)
            #expect(anonymous.allowed && anonymous.reads == 0)
            let admin = try Self.check(access, as: .admin, stored: .empty)
            #expect(admin.allowed && admin.reads == 0)
        }
    }

    @Test func rulesThatReadDataSeeWhatIsStored() async throws {
        try await AccessControl.withFreshDatabase { access in
            try await access.install(
                #"{"rules": {"posts": {"$post": {".write": "!data.exists()"}}}}"#, namespace: "default")
            let existing = Node.empty.setting(Node(.string("Old")), at: try Path(validating: "/posts/p1/title"))
            let onEmpty = try Self.check(access, as: .anonymous, stored: .empty)
            #expect(onEmpty.allowed && onEmpty.reads == 1)
            let onExisting = try Self.check(access, as: .anonymous, stored: existing)
            #expect(!onExisting.allowed && onExisting.reads == 1)
            let adminOnExisting = try Self.check(access, as: .admin, stored: existing)
            #expect(adminOnExisting.allowed && adminOnExisting.reads == 0)
        }
    }

    /// The check a write is handed on with: under rules that grant every write at once (open ones) and for an
    /// administrator it carries the client's own condition alone and no guard, as the walked verdict of no reads
    /// gave; rules that must be walked still decide (a refusal throws, a grant that reads nothing adds no guard).
    @Test func writesGrantedAtOnceCarryTheClientsConditionAlone() async throws {
        try await AccessControl.withFreshDatabase { access in
            let path = try Path(validating: "/posts/p1/title")
            let mutations: [Mutation] = [.set(path, WriteValue(node: Node(.string("Hi"))))]
            let condition = WriteCondition(path: path, expectedHash: Node.empty.hash)
            for identity in [AuthIdentity.anonymous, .admin] {
                for given in [nil, condition] {
                    let checked = try access.check(
                        identity, namespace: "default", mutations: mutations, condition: given, origin: nil)
                    #expect(checked?.conditions == (given.map { [$0] } ?? []) && checked?.isGuarded == false)
                }
            }
            try await access.install(
                #"{"rules": {".write": true, "posts": {".validate": "auth != null"}}}"#, namespace: "default")
            #expect(throws: AccessDeniedError.self) {
                try access.check(.anonymous, namespace: "default", mutations: mutations, condition: nil, origin: nil)
            }
            let admin = try access.check(
                .admin, namespace: "default", mutations: mutations, condition: nil, origin: nil)
            #expect(admin?.conditions == [] && admin?.isGuarded == false)
        }
    }
}
