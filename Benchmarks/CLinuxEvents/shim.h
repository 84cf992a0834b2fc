// epoll(7) and timerfd_create(2), which Swift's Glibc module does not export. Linux only:
// elsewhere this module is empty and workout-bench waits with poll(2).
#ifndef WORKOUT_C_LINUX_EVENTS_H
#define WORKOUT_C_LINUX_EVENTS_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/timerfd.h>
#endif
#endif
