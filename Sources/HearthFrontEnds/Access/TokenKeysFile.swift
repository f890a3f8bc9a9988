import Foundation
public import HearthCore
import HearthRules

/// The file a node's Firebase Auth ID token keys come from (`--auth-keys`), read again and again: Google rotates
/// its signing keys every few hours, so an operator refreshes the file (`scripts/fetch-auth-keys`, from cron) and
/// the node takes the new keys without a restart. The node itself fetches nothing: it has no TLS client, and a
/// database that stalls on Google's availability would be worse than one whose keys lag by the recheck interval.
public struct TokenKeysFile: Sendable {
    public let path: String
    /// The text last read; nil before the first read.
    private var lastText: String?

    public init(path: String) {
        self.path = path
    }

    /// The keys in the file when its text changed since the last call (the first call reads it); nil when it did
    /// not change.
    /// - Throws: `TokenKeysFileError` when the file cannot be read or holds a bad key (it is read again next time:
    ///   a half-written file is refused, then taken once complete).
    public mutating func changedKeys() throws(TokenKeysFileError) -> [String: RSAPublicKey]? {
        let text: String
        do {
            text = try String(contentsOfFile: self.path, encoding: .utf8)
        } catch {
            throw TokenKeysFileError(path: self.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard text != self.lastText else { return nil }
        do {
            let keys = try IDTokenVerifier.keys(from: text)
            self.lastText = text
            return keys
        } catch {
            throw TokenKeysFileError(path: self.path, reason: "is refused: \(error.message)")
        }
    }
}

/// The ID token key file cannot be used; the keys read before stay in force.
public struct TokenKeysFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "The auth key file \(self.path) \(self.reason)" }
}
