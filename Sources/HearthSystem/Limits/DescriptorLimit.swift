import Glibc

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds how many clients a node can hold:
/// every connection is a descriptor, and so are the log's segments, snapshots and cluster links.
public struct DescriptorLimit: Sendable, Equatable {
    /// Descriptors kept back from client connections for the write-ahead log, snapshots, cluster links, the
    /// reactor's own epoll and eventfd descriptors and the standard streams.
    public static let reserved = 128
    /// Below this many descriptors `hearth serve` warns that the node can take few clients.
    public static let comfortable = 4096

    /// The limit that applies now (`ulimit -n`).
    public var soft: Int
    /// The most the process may raise `soft` to without privileges.
    public var hard: Int

    public init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    /// The process's limits now; an unlimited value reads as `Int.max`.
    public static func current() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return DescriptorLimit(soft: 1024, hard: 1024)
        }
        return DescriptorLimit(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as servers do at start (the kernel's default soft limit of 1,024 is
    /// kept low only for old `select`-based programs), and returns the limits that apply afterwards.
    @discardableResult
    public static func raiseToHard() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Self.current() }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Self.current()
    }

    /// How many client connections fit: the soft limit less the reserve, and never fewer than 16.
    public var connections: Int {
        max(16, self.soft - min(self.soft / 2, Self.reserved))
    }

    private static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
