// slowsync: an LD_PRELOAD library that makes every fsync and fdatasync of the process wait
// SLOWSYNC_US microseconds (default 2000) after the real call returns, as on a disk whose
// flush costs what an SD card's or a cheap SSD's does. Writes go to the page cache as usual,
// unlike a FUSE file system, where each write() is a round trip to the file system's process.
//
//   cc -O2 -shared -fPIC -o slowsync.so slowsync.c -ldl
//   LD_PRELOAD=$PWD/slowsync.so SLOWSYNC_US=2000 program ...
//
// Only calls that go through the dynamic linker are slowed: liblmdb's, Swift's and the C
// library's callers', PostgreSQL's and Redis's; not a raw syscall. Syncs that overlap wait side
// by side (a real disk would queue their flushes).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

// Set once, when the library is loaded, before any thread of the program runs.
static long flush_us = 2000;
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

__attribute__((constructor)) static void load(void) {
    const char *text = getenv("SLOWSYNC_US");
    if (text) {
        char *end;
        long parsed = strtol(text, &end, 10);
        if (*text && !*end && parsed >= 0 && parsed <= 10000000) {
            flush_us = parsed;
        } else {
            fprintf(stderr, "slowsync: SLOWSYNC_US must be a number of microseconds from 0 to 10000000, not %s\n", text);
            _exit(64);
        }
    }
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (!real_fsync || !real_fdatasync) {
        fprintf(stderr, "slowsync: the C library's fsync or fdatasync was not found\n");
        _exit(70);
    }
}

static void wait_for_flush(void) {
    struct timespec left = {.tv_sec = flush_us / 1000000, .tv_nsec = (flush_us % 1000000) * 1000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

// The real call, then the flush's wait; the call's errno is kept.
static int slowed(int (*real)(int), int fd) {
    int rc = real(fd);
    int saved = errno;
    wait_for_flush();
    errno = saved;
    return rc;
}

int fsync(int fd) { return slowed(real_fsync, fd); }

int fdatasync(int fd) { return slowed(real_fdatasync, fd); }
