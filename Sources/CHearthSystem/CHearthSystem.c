/* The one C function Swift cannot reach through Glibc: naming the current thread (a GNU extension). */
#define _GNU_SOURCE
#include <pthread.h>
#include "CHearthSystem.h"

int chearth_set_current_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
