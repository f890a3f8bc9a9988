import HearthCore
import HearthFrontEnds
import HearthNode
import HearthSystem

/// The rules a node starts with.
extension NodeRuntime {
    /// Installs the rules the node was started with (`--rules`) for its default namespace, retrying while a
    /// cluster has no leader for the settings yet; without them, says how open or closed the default is.
    func installRules(_ access: AccessControl) async {
        let namespace = self.configuration.defaultNamespace
        guard let rules = self.configuration.rules else {
            if access.hasStoredRules(namespace) {
                self.log.info("rules.stored", ["namespace": namespace])
            } else if self.configuration.isClusterMember {
                self.log.warning(
                    "rules.closed",
                    [
                        "namespace": namespace,
                        "action":
                            "only administrators may read or write until rules are given (--rules, or PUT /.settings/rules.json)",
                    ])
            } else {
                self.log.warning(
                    "rules.open",
                    [
                        "namespace": namespace,
                        "action":
                            "anyone who can reach this node may read and write everything; give rules with --rules",
                    ])
            }
            return
        }
        var delay = Duration.milliseconds(50)
        while !Task.isCancelled {
            if access.hasStoredRules(namespace), access.rules(namespace).text == rules.text { return }
            do {
                try await access.install(rules.text, namespace: namespace)
                self.log.info("rules.installed", ["namespace": namespace])
                return
            } catch {
                self.log.info("rules.install_waiting", ["namespace": namespace, "error": "\(error)"])
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
