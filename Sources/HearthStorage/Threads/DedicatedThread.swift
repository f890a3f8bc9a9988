import Glibc

/// Runs a closure on a new, detached OS thread: the WAL writer blocks in write/fsync and must never occupy one of
/// the Swift concurrency pool's few threads.
enum DedicatedThread {
    /// Starts `body` on its own thread and returns at once: nil on success, else the `pthread_create` error.
    static func start(_ body: @escaping @Sendable () -> Void) -> Int32? {
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { context in
                guard let context else { return nil }
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                box.body()
                return nil
            },
            box.toOpaque()
        )
        guard result == 0 else {
            box.release()
            return result
        }
        pthread_detach(thread)
        return nil
    }

    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
