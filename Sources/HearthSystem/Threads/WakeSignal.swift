import Glibc

/// A binary semaphore with a deadline, so a dedicated thread (the WAL writer) can sleep until work arrives or a
/// window closes.
///
/// `signal()` before `wait()` is remembered (once), so a wake-up is never lost between checking for work and
/// sleeping. Deadlines are `MonotonicClock` readings.
///
/// `@unchecked Sendable`: the flag is only touched while holding the pthread mutex, and the mutex and condition live
/// in heap memory that never moves and is released only in `deinit`, when no thread can be using them.
public final class WakeSignal: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var isSignaled = false

    public init() {
        self.mutex = .allocate(capacity: 1)
        self.condition = .allocate(capacity: 1)
        pthread_mutex_init(self.mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(self.condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(self.condition)
        pthread_mutex_destroy(self.mutex)
        self.condition.deallocate()
        self.mutex.deallocate()
    }

    /// Wakes the waiting thread, or the next one to wait.
    ///
    /// The condition is signalled after the mutex is released: signalled while it is held, the woken thread (often
    /// running at once on the other core) found the mutex still taken and slept on it a second time, until the
    /// unlock woke it again — two more futex calls and a context switch per wake-up. A waiter checks the flag under
    /// the mutex before it sleeps, so a signal sent between the unlock and its wait is not lost; the caller's
    /// reference keeps the condition alive until `signal` returns.
    public func signal() {
        pthread_mutex_lock(self.mutex)
        self.isSignaled = true
        pthread_mutex_unlock(self.mutex)
        pthread_cond_signal(self.condition)
    }

    /// Sleeps until signalled.
    public func wait() {
        pthread_mutex_lock(self.mutex)
        while !self.isSignaled {
            pthread_cond_wait(self.condition, self.mutex)
        }
        self.isSignaled = false
        pthread_mutex_unlock(self.mutex)
    }

    /// Sleeps until signalled or until `MonotonicClock.now()` reaches `deadline`.
    public func wait(untilNanoseconds deadline: UInt64) {
        var time = timespec(
            tv_sec: Int(deadline / 1_000_000_000),
            tv_nsec: Int(deadline % 1_000_000_000)
        )
        pthread_mutex_lock(self.mutex)
        while !self.isSignaled {
            if pthread_cond_timedwait(self.condition, self.mutex, &time) == ETIMEDOUT { break }
        }
        self.isSignaled = false
        pthread_mutex_unlock(self.mutex)
    }
}
