import HearthNode
import HearthSystem

extension NodeRuntime {
    /// Says at start that `owner` is an administrator here, with a warning when strangers could present it.
    func logOwnerCredential() {
        guard self.configuration.acceptsOwner else { return }
        if NodeConfiguration.isLoopback(self.configuration.host) {
            self.log.info(
                "auth.owner_accepted",
                [
                    "host": self.configuration.host,
                    "note": "the emulator's \"owner\" credential is an administrator here (firebase-admin sends it); "
                        + "--owner-credential refuse turns it off",
                ])
        } else {
            self.log.warning(
                "auth.owner_accepted",
                [
                    "host": self.configuration.host,
                    "action": "anyone who can reach this node and sends \"Authorization: Bearer owner\" is an "
                        + "administrator; use --owner-credential refuse unless only trusted clients can reach it",
                ])
        }
    }
}
