/* The C functions Swift cannot reach through Glibc: naming the current thread (a GNU extension), setting its own
   scheduling priority (Linux schedules threads as tasks with their own ids, which Glibc's module does not expose),
   tuning the allocator (malloc.h is not in Glibc's module) and futexes (`syscall` is variadic, which Swift cannot
   call). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "CHearthSystem.h"

int chearth_set_current_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int chearth_set_current_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0 ? 0 : -1;
}

int chearth_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int chearth_futex_wait(uint32_t *word, uint32_t expected, uint64_t deadline) {
    /* FUTEX_WAIT_BITSET takes an absolute deadline, on CLOCK_MONOTONIC unless FUTEX_CLOCK_REALTIME is given. */
    struct timespec time = {.tv_sec = (time_t)(deadline / 1000000000), .tv_nsec = (long)(deadline % 1000000000)};
    long result = syscall(
        SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, expected, deadline == UINT64_MAX ? NULL : &time,
        NULL, FUTEX_BITSET_MATCH_ANY);
    return result == 0 ? 0 : errno;
}

int chearth_futex_wake(uint32_t *word) {
    return (int)syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
}
