import HearthFrontEnds
import HearthNode
import HearthSystem

/// Keeping the Firebase Auth ID token keys current while the node runs.
extension NodeRuntime {
    /// Reads the key file (`--auth-keys`) every `authKeysRecheckSeconds` until cancelled: a changed file replaces
    /// the keys tokens are checked against; one that cannot be used is reported and the keys in force stay.
    func watchAuthKeys(_ path: String, access: AccessControl) async {
        var file = TokenKeysFile(path: path)
        let interval = Duration.milliseconds(Int64(self.configuration.authKeysRecheckSeconds * 1000))
        repeat {
            do {
                if let keys = try file.changedKeys(), access.replaceIDTokenKeys(keys) {
                    self.log.info(
                        "auth.keys_loaded", ["file": path, "key_ids": keys.keys.sorted().joined(separator: ",")])
                }
            } catch {
                self.log.warning(
                    "auth.keys_unusable",
                    ["error": "\(error)", "action": "the keys read before stay in force; fix or replace the file"])
            }
        } while (try? await Task.sleep(for: interval)) != nil
    }
}
