public import Glibc

/// State guarded by a mutex that sleeps instead of spinning when it is taken: the lock every server module uses in
/// place of the standard library's `Mutex`.
///
/// On Linux, `Synchronization.Mutex` spins a thousand `pause` instructions (about 50 µs on this hardware) before it
/// sleeps, and then on a priority-inheritance futex. A node runs more busy threads than it has cores (the reactor,
/// the log writer, the concurrency pool), so the holder of a contended lock is often not running and the spin only
/// burns the core it needs: on a 3-node cluster of two cores, 6.5 % of all CPU time went to that spin. glibc's
/// default mutex takes the lock with one compare-and-swap when it is free and otherwise sleeps on a futex at once.
///
/// The mutex lives in the same allocation as the state (a `ManagedBuffer`), whose address never moves, so it is
/// never copied once initialised. Copies of a `Lock` share one lock, as references to one `Mutex` would. The state
/// must be copyable; a noncopyable one (a thread to join exactly once) stays in a `Mutex`, off any hot path.
///
/// `withLock` is inlinable, so each module that takes a lock gets it specialised for its state and result: as a
/// generic across the module boundary, every call passed type metadata and returned through memory, and the lock
/// showed as 5 % of the log writer's time and a frame on every thread's hot path.
public struct Lock<State>: @unchecked Sendable {
    @usableFromInline let storage: LockStorage<State>

    /// A lock guarding `initial`. Inlinable like `withLock`: as a generic across the module boundary, every lock
    /// made (a flush batch's, a write loop turn's) looked its storage class's metadata up in the runtime's table.
    @inlinable public init(_ initial: State) {
        let buffer = LockStorage<State>.create(minimumCapacity: 1) { _ in initial }
        // `create` returns the subclass's instance typed as its base class.
        self.storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        self.storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable public func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try self.storage.withUnsafeMutablePointers { (state, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

/// The state as the buffer's header and the pthread mutex as its one element.
@usableFromInline final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    deinit {
        _ = self.withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}
