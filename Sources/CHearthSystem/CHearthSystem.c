/* The C functions Swift cannot reach through Glibc: naming the current thread (a GNU extension), setting its own
   scheduling priority (Linux schedules threads as tasks with their own ids, which Glibc's module does not expose),
   tuning the allocator (malloc.h is not in Glibc's module) and the processor's CRC-32C instruction (Swift has no
   intrinsics). */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <string.h>
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

#if defined(__x86_64__)
int chearth_crc32c_is_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t chearth_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *next = bytes;
    uint64_t wide = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, next, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        next += 8;
        count -= 8;
    }
    uint32_t narrow = (uint32_t)wide;
    while (count > 0) {
        narrow = __builtin_ia32_crc32qi(narrow, *next);
        next += 1;
        count -= 1;
    }
    return narrow;
}
#else
int chearth_crc32c_is_available(void) {
    return 0;
}

uint32_t chearth_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;
}
#endif
