/* Makes the Linux system headers that Glibc's Swift module does not export visible to HearthNet. */
#ifndef CHEARTH_SYSTEM_H
#define CHEARTH_SYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <netinet/tcp.h>
#endif
