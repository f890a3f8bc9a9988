import CHearthSystem
import Glibc

/// A binary semaphore with a deadline, so a dedicated thread (the WAL writer, the write loop, an ordered worker) can
/// sleep until work arrives or a window closes. One thread waits on a signal at a time; any thread signals.
///
/// `signal()` before `wait()` is remembered (once), so a wake-up is never lost between checking for work and
/// sleeping. Deadlines are `MonotonicClock` readings.
///
/// One word and a futex: the word says whether a signal is pending and whether the waiter sleeps, so a signal to a
/// thread that is awake is one atomic exchange and no system call, and only a signal to a sleeping thread wakes the
/// futex. (A pthread mutex and condition did this before: the woken thread re-took the mutex marked contended, so
/// every wake-up cost one more futex call as it released it, and every signal took and released the mutex.)
/// No wake-up is lost: the waiter marks the word sleeping with a compare-and-exchange that fails if a signal came
/// first, and the futex sleeps only while the word still says sleeping, so a signal's exchange before the sleep
/// makes the sleep return at once, and one after it finds the mark and wakes it.
///
/// `@unchecked Sendable`: the word is only touched through atomic operations and the futex, and it lives in heap
/// memory that never moves and is released only in `deinit`, when no thread can be using it.
public final class WakeSignal: @unchecked Sendable {
    /// No signal is pending and the waiter does not sleep.
    private static let idle: UInt32 = 0
    /// A signal is pending: the next wait takes it and returns at once.
    private static let signaled: UInt32 = 1
    /// The waiter sleeps on the futex (or is about to): a signal must wake it.
    private static let sleeping: UInt32 = 2

    private let word: UnsafeMutablePointer<UInt32>

    public init() {
        self.word = .allocate(capacity: 1)
        self.word.initialize(to: Self.idle)
    }

    deinit {
        self.word.deallocate()
    }

    /// Wakes the waiting thread, or the next one to wait.
    public func signal() {
        if chearth_word_exchange(self.word, Self.signaled) == Self.sleeping {
            _ = chearth_futex_wake(self.word)
        }
    }

    /// Sleeps until signalled.
    public func wait() {
        while !self.takeSignal() {
            _ = chearth_futex_wait(self.word, Self.sleeping, UInt64.max)
        }
    }

    /// Sleeps until signalled or until `MonotonicClock.now()` reaches `deadline`.
    public func wait(untilNanoseconds deadline: UInt64) {
        while !self.takeSignal() {
            if chearth_futex_wait(self.word, Self.sleeping, deadline) == ETIMEDOUT {
                // Awake again without a wake-up: the mark goes, and so does a signal that came meanwhile (the
                // thread is awake and looks for work next, as it does after one).
                _ = chearth_word_exchange(self.word, Self.idle)
                return
            }
        }
    }

    /// Takes a pending signal (true), or marks the waiter sleeping, so that the next signal wakes the futex (false).
    private func takeSignal() -> Bool {
        while true {
            switch chearth_word_load(self.word) {
            case Self.signaled:
                if chearth_word_compare_exchange(self.word, Self.signaled, Self.idle) { return true }
            case Self.idle:
                if chearth_word_compare_exchange(self.word, Self.idle, Self.sleeping) { return false }
            default:
                return false
            }
        }
    }
}
