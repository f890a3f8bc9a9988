/* The C functions Swift cannot reach through Glibc: naming the current thread (a GNU extension), setting its own
   scheduling priority (Linux schedules threads as tasks with their own ids, which Glibc's module does not expose)
   and tuning the allocator (malloc.h is not in Glibc's module). */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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
