public import HearthCore
import HearthDatabase
import HearthNode
public import HearthRules

/// Deciding a write from its head: a front end refuses a write the rules refuse whatever it holds before reading
/// its body.
extension AccessControl {
    /// What the rules of `namespace` say of a write by `identity` at `path` (`below`: at keys under it that come in
    /// the body), before its data is known; see `RulesDocument.forecastWrite`. Administrators are always granted.
    public func forecastWrite(_ identity: AuthIdentity, namespace: String, path: Path, below: Bool) -> WriteForecast {
        guard case .user(let auth) = identity else { return .granted }
        return self.rules(namespace).document.forecastWrite(
            at: path, below: below, auth: auth, now: Double(self.database.now()))
    }
}
