/// Who a request comes from, once its credential has been checked.
public enum AuthIdentity: Sendable, Equatable {
    /// An administrator (the database secret, a token with `admin: true`, the emulator's `owner`): rules are not
    /// consulted.
    case admin
    /// A client whose rules see `auth` as this value: `null` when it presented no credential, otherwise the
    /// object with `uid`, `provider` and `token` a verified token gives.
    case user(RuleValue)

    /// A client that presented no credential.
    public static let anonymous = AuthIdentity.user(.null)

    /// What rules see as `auth` (administrators never reach the rules).
    public var auth: RuleValue {
        switch self {
        case .admin: .null
        case .user(let auth): auth
        }
    }
}
