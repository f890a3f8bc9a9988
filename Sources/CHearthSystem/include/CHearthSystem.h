/* Makes the Linux system headers that Glibc's Swift module does not export visible to HearthNet and HearthSystem
   (and malloc.h to tests that measure what a value allocates), and gives HearthSystem the futex calls and the
   atomics on a futex word that Swift cannot make itself. */
#ifndef CHEARTH_SYSTEM_H
#define CHEARTH_SYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <netinet/tcp.h>
#include <malloc.h>
#include <sys/random.h>
#include <stdbool.h>
#include <stdint.h>

/* Names the calling thread (at most 15 bytes are kept) so `top -H`, gdb and perf show what it is; returns 0 or an
   errno value. pthread_setname_np needs _GNU_SOURCE, which Glibc's Swift module does not define. */
int chearth_set_current_thread_name(const char *name);

/* Sets the calling thread's nice value (-20 highest to 19 lowest priority); returns 0, or -1 with errno set. */
int chearth_set_current_thread_nice(int nice);

/* Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD), which also stops glibc from raising it as
   big mapped buffers are freed; returns 1 on success, 0 on failure. */
int chearth_set_mmap_threshold(int bytes);

/* Sequentially consistent atomics on a 32-bit word that a futex can also name (Synchronization's Atomic does not
   give out its address). `chearth_word_exchange` returns the previous value; `chearth_word_compare_exchange` stores
   `desired` only if the word holds `expected` and says whether it did. */
static inline uint32_t chearth_word_load(uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline uint32_t chearth_word_exchange(uint32_t *word, uint32_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_SEQ_CST);
}

static inline bool chearth_word_compare_exchange(uint32_t *word, uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* Sleeps while `*word` holds `expected` (a private futex): until `chearth_futex_wake` on the word, a signal, or
   `deadline`, CLOCK_MONOTONIC nanoseconds (UINT64_MAX: none). Returns 0 when woken, or the errno value: EAGAIN when
   the word no longer held `expected`, ETIMEDOUT, EINTR. Callers re-check the word either way (a return may be
   spurious). */
int chearth_futex_wait(uint32_t *word, uint32_t expected, uint64_t deadline);

/* Wakes one thread sleeping on `word`; returns how many it woke (0 or 1), or -1. */
int chearth_futex_wake(uint32_t *word);
#endif
