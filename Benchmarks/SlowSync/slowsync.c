// slowsync: an LD_PRELOAD library that makes every flush of the process wait SLOWSYNC_US
// microseconds (default 2000) after the real call returns, as on a disk whose flush costs what
// an SD card's or a cheap SSD's does: each fsync and fdatasync, and each write to a descriptor
// opened with O_DSYNC or O_SYNC (such a write returns only once its data is on disk, as a
// write and an fdatasync would). Other writes go to the page cache as usual (but for O_DIRECT
// ones), unlike a FUSE file system, where each write() is a round trip to the file system's
// process.
//
//   cc -O2 -shared -fPIC -o slowsync.so slowsync.c -ldl
//   LD_PRELOAD=$PWD/slowsync.so SLOWSYNC_US=2000 program ...
//
// Only calls that go through the dynamic linker are slowed: liblmdb's, Swift's and the C
// library's callers', PostgreSQL's and Redis's; not a raw syscall. A descriptor counts as
// synchronous when open, open64, openat or openat64 (or their fortified forms) gave it with
// O_DSYNC (O_SYNC includes it), or dup, dup2 or dup3 copied one that was; not one that fcntl
// made, nor past the first 65,536 descriptors. Syncs that overlap wait side by side (a real
// disk would queue their flushes).
//
// The real calls are looked up when first used, not in a constructor: another library's
// constructor, run before this one's, may already open or write.
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

// Set once, when the library is loaded, before any thread of the program runs.
static long flush_us = 2000;

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
}

// The C library's own function `name`, found on first use (dlsym is safe to call again from
// several threads: each finds the same address).
static void *real(void *_Atomic *cache, const char *name) {
    void *found = atomic_load_explicit(cache, memory_order_acquire);
    if (found) return found;
    found = dlsym(RTLD_NEXT, name);
    if (!found) {
        fprintf(stderr, "slowsync: the C library's %s was not found\n", name);
        _exit(70);
    }
    atomic_store_explicit(cache, found, memory_order_release);
    return found;
}

#define REAL(type, name) ((type)real(&real_##name, #name))

static void *_Atomic real_fsync, *_Atomic real_fdatasync, *_Atomic real_open, *_Atomic real_open64, *_Atomic real_openat,
    *_Atomic real_openat64, *_Atomic real___open_2, *_Atomic real___open64_2, *_Atomic real___openat_2,
    *_Atomic real___openat64_2, *_Atomic real_close, *_Atomic real_dup, *_Atomic real_dup2, *_Atomic real_dup3,
    *_Atomic real_write, *_Atomic real_pwrite, *_Atomic real_pwrite64, *_Atomic real_writev, *_Atomic real_pwritev,
    *_Atomic real_pwritev64;

static void wait_for_flush(void) {
    struct timespec left = {.tv_sec = flush_us / 1000000, .tv_nsec = (flush_us % 1000000) * 1000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

// The real call's result, after the flush's wait; the call's errno is kept.
static int slowed(int rc) {
    int saved = errno;
    wait_for_flush();
    errno = saved;
    return rc;
}

int fsync(int fd) { return slowed(REAL(int (*)(int), fsync)(fd)); }

int fdatasync(int fd) { return slowed(REAL(int (*)(int), fdatasync)(fd)); }

// Descriptors: remember which are synchronous.

#define MAX_TRACKED 65536
static atomic_bool synchronous[MAX_TRACKED];

static void mark(int fd, int is_synchronous) {
    if (fd >= 0 && fd < MAX_TRACKED) atomic_store(&synchronous[fd], is_synchronous);
}

static int is_synchronous(int fd) { return fd >= 0 && fd < MAX_TRACKED && atomic_load(&synchronous[fd]); }

static int opened(int fd, int flags) {
    mark(fd, (flags & O_DSYNC) != 0);
    return fd;
}

// The mode argument is read only when the flags say one was passed (open(2)).
static mode_t mode_of(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

typedef int (*open_call)(const char *, int, ...);
typedef int (*openat_call)(int, const char *, int, ...);

// Declares `mode`: the variadic argument of the open call this expands in, or 0.
#define MODE_ARGUMENT(flags)                  \
    mode_t mode;                              \
    do {                                      \
        va_list arguments;                    \
        va_start(arguments, flags);           \
        mode = mode_of(flags, arguments);     \
        va_end(arguments);                    \
    } while (0)

int open(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(REAL(open_call, open)(path, flags, mode), flags);
}

int open64(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(REAL(open_call, open64)(path, flags, mode), flags);
}

int openat(int directory, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(REAL(openat_call, openat)(directory, path, flags, mode), flags);
}

int openat64(int directory, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(REAL(openat_call, openat64)(directory, path, flags, mode), flags);
}

// What a two-argument open compiled with _FORTIFY_SOURCE calls.
int __open_2(const char *path, int flags) { return opened(REAL(int (*)(const char *, int), __open_2)(path, flags), flags); }

int __open64_2(const char *path, int flags) { return opened(REAL(int (*)(const char *, int), __open64_2)(path, flags), flags); }

int __openat_2(int directory, const char *path, int flags) {
    return opened(REAL(int (*)(int, const char *, int), __openat_2)(directory, path, flags), flags);
}

int __openat64_2(int directory, const char *path, int flags) {
    return opened(REAL(int (*)(int, const char *, int), __openat64_2)(directory, path, flags), flags);
}

int close(int fd) {
    mark(fd, 0);
    return REAL(int (*)(int), close)(fd);
}

int dup(int fd) {
    int copy = REAL(int (*)(int), dup)(fd);
    mark(copy, is_synchronous(fd));
    return copy;
}

int dup2(int fd, int target) {
    int copy = REAL(int (*)(int, int), dup2)(fd, target);
    mark(copy, is_synchronous(fd));
    return copy;
}

int dup3(int fd, int target, int flags) {
    int copy = REAL(int (*)(int, int, int), dup3)(fd, target, flags);
    mark(copy, is_synchronous(fd));
    return copy;
}

// Writes: one to a synchronous descriptor that wrote something waits as a flush would.

static ssize_t after_write(int fd, ssize_t written) {
    if (written > 0 && is_synchronous(fd)) {
        int saved = errno;
        wait_for_flush();
        errno = saved;
    }
    return written;
}

ssize_t write(int fd, const void *bytes, size_t count) {
    return after_write(fd, REAL(ssize_t (*)(int, const void *, size_t), write)(fd, bytes, count));
}

ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    return after_write(fd, REAL(ssize_t (*)(int, const void *, size_t, off_t), pwrite)(fd, bytes, count, offset));
}

ssize_t pwrite64(int fd, const void *bytes, size_t count, off64_t offset) {
    return after_write(fd, REAL(ssize_t (*)(int, const void *, size_t, off64_t), pwrite64)(fd, bytes, count, offset));
}

ssize_t writev(int fd, const struct iovec *vectors, int count) {
    return after_write(fd, REAL(ssize_t (*)(int, const struct iovec *, int), writev)(fd, vectors, count));
}

ssize_t pwritev(int fd, const struct iovec *vectors, int count, off_t offset) {
    return after_write(fd, REAL(ssize_t (*)(int, const struct iovec *, int, off_t), pwritev)(fd, vectors, count, offset));
}

ssize_t pwritev64(int fd, const struct iovec *vectors, int count, off64_t offset) {
    return after_write(fd, REAL(ssize_t (*)(int, const struct iovec *, int, off64_t), pwritev64)(fd, vectors, count, offset));
}
