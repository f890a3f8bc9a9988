import Glibc
import HearthSystem

/// When the emulator's `owner` credential makes an administrator.
///
/// The emulator accepts `owner` because it only listens on loopback and nobody else can reach it: firebase-admin
/// sends it to any emulator. A node is like that only while it listens on loopback and has no real credentials of
/// its own; anywhere else `owner` would be an administrator's password everybody knows.
extension NodeConfiguration {
    /// Whether `owner` is an administrator on this node: as `--owner-credential` says, else only on a single node
    /// that listens on loopback alone and has no database secrets and no ID-token keys (a loopback node with rules,
    /// or none, keeps accepting it, as the emulator does for firebase-admin).
    public var acceptsOwner: Bool {
        if let explicit = self.acceptsOwnerCredential { return explicit }
        return !self.isClusterMember && Self.isLoopback(self.host) && self.databaseSecrets.isEmpty
            && self.idTokens == nil
    }

    /// Whether `host` (a numeric address, as `--host` takes) is a loopback address: 127.0.0.0/8, `::1`, or an
    /// IPv4-mapped 127.0.0.0/8. Anything else, `0.0.0.0` and `::` included, can be reached from other machines.
    public static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        return mapped && bytes[12] == 127
    }
}
