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

/* Names the calling thread (at most 15 bytes are kept) so `top -H`, gdb and perf show what it is; returns 0 or an
   errno value. pthread_setname_np needs _GNU_SOURCE, which Glibc's Swift module does not define. */
int chearth_set_current_thread_name(const char *name);

/* Sets the calling thread's nice value (-20 highest to 19 lowest priority); returns 0, or -1 with errno set. */
int chearth_set_current_thread_nice(int nice);

/* Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD), which also stops glibc from raising it as
   big mapped buffers are freed; returns 1 on success, 0 on failure. */
int chearth_set_mmap_threshold(int bytes);
#endif
