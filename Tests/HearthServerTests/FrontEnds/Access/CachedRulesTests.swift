import Foundation
import HearthCore
import HearthRules
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthFrontEnds
@testable import HearthNode

/// The rules a caller keeps (`AccessControl.rules(_:cachedIn:)`) are always the rules in force: the same as the
/// locked lookup (`rules(_:)`) after every change to any namespace's rules, and never read again while none
/// changed.
@Suite struct CachedRulesTests {
    /// Drops `namespace`'s stored rules, so the default applies again.
    private static func remove(_ namespace: String, from access: AccessControl) async throws {
        let mutation = Mutation.set(AccessControl.rulesPath(namespace), WriteValue(node: .empty))
        _ = try await access.database.write(namespace: AccessControl.settingsNamespace, mutations: [mutation])
    }

    /// A cache answers what the lock answers, before and after its namespace's rules are installed, replaced,
    /// installed again unchanged and removed, and after another namespace's change.
    @Test func aCacheFollowsEveryChange() async throws {
        try await AccessControl.withFreshDatabase { access in
            var cache: CachedRules?
            #expect(access.rules("default", cachedIn: &cache) === access.defaultRules)
            try await access.install(#"{"rules": {".write": false}}"#, namespace: "default")
            let closed = access.rules("default")
            #expect(closed !== access.defaultRules)
            #expect(access.rules("default", cachedIn: &cache) === closed)
            let version = cache?.version
            try await access.install(#"{"rules": {".write": false}}"#, namespace: "default")
            #expect(access.rules("default", cachedIn: &cache) === closed, "the same text changes nothing")
            #expect(cache?.version == version)
            try await access.install(#"{"rules": {".write": true}}"#, namespace: "other")
            #expect(access.rules("default", cachedIn: &cache) === closed)
            try await access.install(#"{"rules": {".write": "auth != null"}}"#, namespace: "default")
            #expect(access.rules("default", cachedIn: &cache) === access.rules("default"))
            #expect(access.rules("default", cachedIn: &cache) !== closed)
            try await Self.remove("default", from: access)
            #expect(access.rules("default", cachedIn: &cache) === access.defaultRules)
        }
    }

    /// While no rules change, a cache answers from what it holds, without the lock: an entry planted in it (one
    /// the node never had) is what comes back, until a change makes the cache read the rules again.
    @Test func anUnchangedVersionIsReadFromTheCache() async throws {
        try await AccessControl.withFreshDatabase { access in
            var cache: CachedRules?
            _ = access.rules("default", cachedIn: &cache)
            let planted = InstalledRules.closed
            cache?.rules = planted
            #expect(access.rules("default", cachedIn: &cache) === planted)
            try await access.install(#"{"rules": {".write": true}}"#, namespace: "other")
            #expect(access.rules("default", cachedIn: &cache) === access.defaultRules)
        }
    }

    /// A cache filled for one namespace is not taken for another's rules.
    @Test func aCacheIsForItsNamespace() async throws {
        try await AccessControl.withFreshDatabase { access in
            try await access.install(#"{"rules": {".write": false}}"#, namespace: "a")
            var cache: CachedRules?
            #expect(access.rules("a", cachedIn: &cache) === access.rules("a"))
            #expect(access.rules("b", cachedIn: &cache) === access.defaultRules)
            #expect(access.rules("a", cachedIn: &cache) === access.rules("a"))
        }
    }

    /// Differential: over a seeded run of installs, replacements and removals across three namespaces, each
    /// namespace's cache gives the same rules as the locked lookup after every step.
    @Test func seededChangesAgreeWithTheLockedLookup() async throws {
        try await AccessControl.withFreshDatabase { access in
            var random = SeededRandom(seed: 33)
            let namespaces = ["a", "b", "c"]
            let texts = [
                #"{"rules": {".write": true}}"#, #"{"rules": {".write": false}}"#,
                #"{"rules": {"x": {".write": "auth != null"}}}"#,
            ]
            var caches: [String: CachedRules?] = [:]
            for _ in 0..<40 {
                let namespace = namespaces[Int(random.next() % 3)]
                if random.next() % 4 == 0 {
                    try await Self.remove(namespace, from: access)
                } else {
                    try await access.install(texts[Int(random.next() % 3)], namespace: namespace)
                }
                for checked in namespaces {
                    var cache = caches[checked] ?? nil
                    #expect(access.rules(checked, cachedIn: &cache) === access.rules(checked))
                    caches[checked] = cache
                }
            }
        }
    }
}
