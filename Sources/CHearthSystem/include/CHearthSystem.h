/* Makes the Linux system headers that Glibc's Swift module does not export visible to HearthNet and HearthSystem
   (and malloc.h to tests that measure what a value allocates). */
#ifndef CHEARTH_SYSTEM_H
#define CHEARTH_SYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <netinet/tcp.h>
#include <malloc.h>
#include <sys/random.h>
#include <stddef.h>
#include <stdint.h>

/* Names the calling thread (at most 15 bytes are kept) so `top -H`, gdb and perf show what it is; returns 0 or an
   errno value. pthread_setname_np needs _GNU_SOURCE, which Glibc's Swift module does not define. */
int chearth_set_current_thread_name(const char *name);

/* Sets the calling thread's nice value (-20 highest to 19 lowest priority); returns 0, or -1 with errno set. */
int chearth_set_current_thread_nice(int nice);

/* Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD), which also stops glibc from raising it as
   big mapped buffers are freed; returns 1 on success, 0 on failure. */
int chearth_set_mmap_threshold(int bytes);

/* Whether the processor has a CRC-32C instruction `chearth_crc32c_update` uses (x86-64's SSE 4.2); 1 or 0. */
int chearth_crc32c_is_available(void);

/* Advances the CRC-32C register `crc` (not inverted) over `count` bytes with the processor's instruction; only
   when `chearth_crc32c_is_available()` says so. */
uint32_t chearth_crc32c_update(uint32_t crc, const void *bytes, size_t count);
#endif
