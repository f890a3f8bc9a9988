import HearthSystem

/// The data directories `ServerProcess` made, each with the number of nodes started on it that are still around:
/// a test restarts a node on the directory of one it stopped, so the directory goes only when the last of them has
/// exited.
enum DataDirectoryLeases {
    /// A node's data directory and whether the node holds a lease on it.
    struct Directory {
        let path: String
        let isLeased: Bool
    }

    private static let leases = Lock<[String: (directory: TemporaryDirectory, count: Int)]>([:])

    /// A fresh directory with one lease on it.
    static func make() throws -> Directory {
        let directory = try TemporaryDirectory("hearth-process")
        Self.leases.withLock { $0[directory.path] = (directory, 1) }
        return Directory(path: directory.path, isLeased: true)
    }

    /// The directory a test gave: leased when a `ServerProcess` made it, else the test's alone.
    static func take(_ path: String) -> Directory {
        let isLeased = Self.leases.withLock { leases in
            guard let lease = leases[path] else { return false }
            leases[path] = (lease.directory, lease.count + 1)
            return true
        }
        return Directory(path: path, isLeased: isLeased)
    }

    /// Gives back one lease on `path`; removes the directory with the last.
    static func release(_ path: String) {
        let last = Self.leases.withLock { leases -> TemporaryDirectory? in
            guard let lease = leases[path] else { return nil }
            guard lease.count <= 1 else {
                leases[path] = (lease.directory, lease.count - 1)
                return nil
            }
            leases[path] = nil
            return lease.directory
        }
        last?.remove()
    }
}
