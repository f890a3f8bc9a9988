import HearthRules
import HearthSystem

/// Credentials already verified, so a REST client presenting the same token on every request pays for its
/// signature check once: a bounded map from the credential to who it is, consulted only while the credential has
/// not expired (an expired one is verified again, and refused). Refusals are not kept.
final class CredentialCache: Sendable {
    private let entries = Lock<[String: Authentication]>([:])
    /// The most credentials kept; past it the cache starts over (a burst of distinct tokens costs what no cache
    /// would).
    let capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// Who `credential` belongs to: remembered, or verified by `verify` and remembered.
    /// - Parameter now: seconds since the Unix epoch.
    func authentication(
        of credential: String, now: Double, verify: () throws(TokenError) -> Authentication
    ) throws(TokenError) -> Authentication {
        if let known = self.entries.withLock({ $0[credential] }), known.expires.map({ now < $0 }) ?? true {
            return known
        }
        let authentication = try verify()
        self.entries.withLock { entries in
            if entries.count >= self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[credential] = authentication
        }
        return authentication
    }
}
