// slowsync: an LD_PRELOAD library that makes every fsync and fdatasync of the process wait
// SLOWSYNC_US microseconds (default 2000) after the real call returns, as on a disk whose
// flush costs what an SD card's or a cheap SSD's does. Writes go to the page cache as usual,
// unlike a FUSE file system, where each write() is a round trip to the file system's process.
//
//   cc -O2 -shared -fPIC -o slowsync.so slowsync.c -ldl
//   LD_PRELOAD=$PWD/slowsync.so SLOWSYNC_US=2000 program ...
//
// Only calls that go through the dynamic linker are slowed: liblmdb's, Swift's and the C
// library's callers', PostgreSQL's and Redis's; not a raw syscall.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

static long flush_us(void) {
    static long value = -1;
    if (value < 0) {
        const char *text = getenv("SLOWSYNC_US");
        long parsed = text ? strtol(text, NULL, 10) : 2000;
        value = parsed >= 0 && parsed <= 10000000 ? parsed : 2000;
    }
    return value;
}

static void wait_for_flush(void) {
    long us = flush_us();
    struct timespec left = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int rc = real(fd);
    int saved = errno;
    wait_for_flush();
    errno = saved;
    return rc;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int rc = real(fd);
    int saved = errno;
    wait_for_flush();
    errno = saved;
    return rc;
}
