import CHearthSystem
import Glibc

/// An OS thread (a pthread) running one closure, for work that blocks in the kernel — the reactor's `epoll_wait`,
/// the WAL writer's write and fsync, blocking test clients — and so must never occupy one of the Swift concurrency
/// pool's few threads.
///
/// The handle is non-copyable, so a thread is joined or detached exactly once: `join()` waits for the closure to
/// return, `detach()` lets it finish on its own. A handle dropped without either detaches the thread, so it never
/// leaks.
public struct DedicatedThread: ~Copyable {
    private let thread: pthread_t

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Starts `body` on a new thread called `name` (the first 15 bytes show in `top -H`, gdb and perf).
    ///
    /// - Throws: `SystemError` when the system refuses another thread (process thread limit or memory).
    public static func start(
        name: String, _ body: @escaping @Sendable () -> Void
    ) throws(SystemError) -> DedicatedThread {
        let context = Unmanaged.passRetained(Entry(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Entry>.fromOpaque(context).takeRetainedValue().run()
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Entry>.fromOpaque(context).release()
            throw SystemError(
                call: "pthread_create", errorNumber: result,
                message: "Could not start the \(name) thread: pthread_create failed: \(SystemError.describe(result)). "
                    + "Raise the process's thread or memory limits (ulimit -u, the cgroup's pids.max)."
            )
        }
        return DedicatedThread(thread: thread)
    }

    /// Lowers the calling thread's scheduling priority to `nice` (0 normal … 19 lowest), for background work that
    /// must yield the cores to latency-sensitive threads. Returns false when the system refused.
    @discardableResult
    public static func lowerCurrentThreadPriority(nice: Int32 = 19) -> Bool {
        chearth_set_current_thread_nice(nice) == 0
    }

    /// Waits until the closure has returned.
    public consuming func join() {
        _ = pthread_join(self.thread, nil)
        discard self
    }

    /// Lets the thread run to completion on its own; its resources are released when the closure returns.
    public consuming func detach() {
        _ = pthread_detach(self.thread)
        discard self
    }

    deinit {
        _ = pthread_detach(self.thread)
    }

    /// What the new thread runs: names itself, then calls the body. A class so one retained pointer carries both
    /// through `pthread_create`'s `void *`.
    private final class Entry: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            let name = self.name.utf8.prefix(15).map { CChar(bitPattern: $0) } + [0]
            _ = name.withUnsafeBufferPointer { chearth_set_current_thread_name($0.baseAddress) }
            self.body()
        }
    }
}
