// powercutfs: a pass-through FUSE filesystem that keeps every written byte in memory until the
// writer syncs it, so that a test can cut the power (drop every write not yet synced, as a disk's
// volatile cache loses it) and a benchmark can give each sync the cost of a slow disk's flush.
//
//   powercutfs BACKING MOUNTPOINT [--flush-delay-us N] [FUSE options, e.g. -f -o allow_other]
//
// Data writes (write) are held per file, in 4 KiB blocks, and read back from there; fsync and
// fdatasync of a file (also O_SYNC/O_DSYNC writes, which the kernel follows with an fsync) write
// that file's held blocks to BACKING and then wait --flush-delay-us; fsyncdir waits the same.
// Metadata operations (create, mkdir, rename, unlink, truncate, chmod) reach BACKING at once, as
// on a file system whose journal commits them synchronously; a truncate first writes the file's
// held blocks (so the order of a file's writes and its size changes is kept). Held writes are
// kept by inode: a file created anew forgets what was held for its inode number, which a
// deleted file may have had (PostgreSQL creates and deletes many).
//
// The control file MOUNTPOINT/.powercut: writing "cut" drops every held write of every file (a
// power cut); reading it returns counters: syncs, directory syncs, bytes written, bytes synced,
// bytes dropped, cuts. After a cut the kernel's page cache still holds the dropped bytes: a test
// stops the writer, unmounts, and reads BACKING itself, which holds exactly what was synced.
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#define BLOCK 4096
#define BUCKETS 4096
#define CONTROL "/.powercut"

// One block of a file as its writer last wrote it, not yet synced.
struct held_block {
    uint64_t index;
    struct held_block *next;
    unsigned char bytes[BLOCK];
};

// The held writes of one file (by the backing file's device and inode).
struct held_file {
    dev_t dev;
    ino_t ino;
    off_t size;            // the file's size as its writer sees it (held writes included)
    size_t blocks;
    struct held_block *buckets[BUCKETS];
    struct held_file *next;
};

static struct {
    int backing;           // the backing directory, for the *at calls
    long flush_delay_us;
    pthread_mutex_t lock;  // guards files and the counters
    struct held_file *files;
    uint64_t syncs, dir_syncs, bytes_written, bytes_synced, bytes_dropped, cuts;
} fs = {.lock = PTHREAD_MUTEX_INITIALIZER};

// A relative path under the backing directory ("." for the root).
static const char *rel(const char *path) {
    while (*path == '/') path++;
    return *path ? path : ".";
}

static struct held_file *held_find(dev_t dev, ino_t ino, int create, off_t backing_size) {
    for (struct held_file *f = fs.files; f; f = f->next)
        if (f->dev == dev && f->ino == ino) return f;
    if (!create) return NULL;
    struct held_file *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->dev = dev;
    f->ino = ino;
    f->size = backing_size;
    f->next = fs.files;
    fs.files = f;
    return f;
}

static struct held_block *block_find(struct held_file *f, uint64_t index) {
    for (struct held_block *b = f->buckets[index % BUCKETS]; b; b = b->next)
        if (b->index == index) return b;
    return NULL;
}

// Writes every held block of `f` to the backing file `fd` (clipped to the file's size) and
// forgets them. Returns 0 or -errno.
static int held_write_out(struct held_file *f, int fd) {
    int rc = 0;
    for (size_t i = 0; i < BUCKETS; i++) {
        struct held_block *b = f->buckets[i];
        while (b) {
            struct held_block *next = b->next;
            off_t start = (off_t)b->index * BLOCK;
            if (start < f->size && rc == 0) {
                size_t length = (size_t)((f->size - start) < BLOCK ? (f->size - start) : BLOCK);
                ssize_t n = pwrite(fd, b->bytes, length, start);
                if (n < 0) rc = -errno;
                else fs.bytes_synced += (uint64_t)n;
            }
            free(b);
            b = next;
        }
        f->buckets[i] = NULL;
    }
    f->blocks = 0;
    if (rc == 0) {
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_size < f->size && ftruncate(fd, f->size) != 0) rc = -errno;
    }
    return rc;
}

// Frees every held block of `f`; counts them as dropped (a power cut lost them) when `lost`.
static void held_free_blocks(struct held_file *f, int lost) {
    for (size_t i = 0; i < BUCKETS; i++) {
        struct held_block *b = f->buckets[i];
        while (b) {
            struct held_block *next = b->next;
            if (lost) fs.bytes_dropped += BLOCK;
            free(b);
            b = next;
        }
        f->buckets[i] = NULL;
    }
    f->blocks = 0;
}

static void held_drop(struct held_file *f) { held_free_blocks(f, 1); }

// Forgets the held writes of an inode that no longer holds the file they were written to: a
// new file can get the inode number of one deleted before, and must not inherit its held
// blocks or size. Not counted as dropped: nothing anybody still reads is lost.
static void held_forget(dev_t dev, ino_t ino) {
    for (struct held_file **link = &fs.files; *link; link = &(*link)->next) {
        struct held_file *f = *link;
        if (f->dev != dev || f->ino != ino) continue;
        *link = f->next;
        held_free_blocks(f, 0);
        free(f);
        return;
    }
}

static void flush_delay(void) {
    if (fs.flush_delay_us <= 0) return;
    struct timespec t = {.tv_sec = fs.flush_delay_us / 1000000, .tv_nsec = (fs.flush_delay_us % 1000000) * 1000};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static int is_control(const char *path) { return strcmp(path, CONTROL) == 0; }

static int pc_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (is_control(path)) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0600;
        st->st_nlink = 1;
        st->st_size = 256;
        return 0;
    }
    int rc = fi ? fstat((int)fi->fh, st) : fstatat(fs.backing, rel(path), st, AT_SYMLINK_NOFOLLOW);
    if (rc != 0) return -errno;
    if (S_ISREG(st->st_mode)) {
        pthread_mutex_lock(&fs.lock);
        struct held_file *f = held_find(st->st_dev, st->st_ino, 0, 0);
        if (f) st->st_size = f->size;
        pthread_mutex_unlock(&fs.lock);
    }
    return 0;
}

static int pc_access(const char *path, int mask) {
    if (is_control(path)) return 0;
    return faccessat(fs.backing, rel(path), mask, 0) == 0 ? 0 : -errno;
}

static int pc_readlink(const char *path, char *buf, size_t size) {
    ssize_t n = readlinkat(fs.backing, rel(path), buf, size - 1);
    if (n < 0) return -errno;
    buf[n] = 0;
    return 0;
}

static int pc_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void)offset; (void)fi; (void)flags;
    int fd = openat(fs.backing, rel(path), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return -errno;
    DIR *dir = fdopendir(fd);
    if (!dir) { int e = errno; close(fd); return -e; }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        struct stat st = {.st_ino = entry->d_ino, .st_mode = (mode_t)(entry->d_type << 12)};
        if (fill(buf, entry->d_name, &st, 0, 0)) break;
    }
    closedir(dir);
    return 0;
}

static int pc_mkdir(const char *path, mode_t mode) { return mkdirat(fs.backing, rel(path), mode) == 0 ? 0 : -errno; }
// Special files: a Unix socket bound here (PostgreSQL's, when its socket directory is on this
// file system) or a FIFO.
static int pc_mknod(const char *path, mode_t mode, dev_t rdev) {
    return mknodat(fs.backing, rel(path), mode, rdev) == 0 ? 0 : -errno;
}
static int pc_rmdir(const char *path) { return unlinkat(fs.backing, rel(path), AT_REMOVEDIR) == 0 ? 0 : -errno; }
static int pc_unlink(const char *path) { return unlinkat(fs.backing, rel(path), 0) == 0 ? 0 : -errno; }
static int pc_symlink(const char *target, const char *path) { return symlinkat(target, fs.backing, rel(path)) == 0 ? 0 : -errno; }
static int pc_link(const char *from, const char *to) { return linkat(fs.backing, rel(from), fs.backing, rel(to), 0) == 0 ? 0 : -errno; }

static int pc_rename(const char *from, const char *to, unsigned int flags) {
    return renameat2(fs.backing, rel(from), fs.backing, rel(to), flags) == 0 ? 0 : -errno;
}

static int pc_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int rc = fi ? fchmod((int)fi->fh, mode) : fchmodat(fs.backing, rel(path), mode, 0);
    return rc == 0 ? 0 : -errno;
}

static int pc_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    int rc = fi ? fchown((int)fi->fh, uid, gid) : fchownat(fs.backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
    return rc == 0 ? 0 : -errno;
}

static int pc_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    int rc = fi ? futimens((int)fi->fh, tv) : utimensat(fs.backing, rel(path), tv, AT_SYMLINK_NOFOLLOW);
    return rc == 0 ? 0 : -errno;
}

static int pc_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    int fd = fi ? (int)fi->fh : openat(fs.backing, rel(path), O_WRONLY);
    if (fd < 0) return -errno;
    struct stat st;
    int rc = fstat(fd, &st) == 0 ? 0 : -errno;
    if (rc == 0) {
        pthread_mutex_lock(&fs.lock);
        struct held_file *f = held_find(st.st_dev, st.st_ino, 0, 0);
        if (f) rc = held_write_out(f, fd);
        if (rc == 0 && ftruncate(fd, size) != 0) rc = -errno;
        if (f && rc == 0) f->size = size;
        pthread_mutex_unlock(&fs.lock);
    }
    if (!fi) close(fd);
    return rc;
}

// How a backing file is opened for a file the writer opens with `flags`: read and write (a
// partial block's synced bytes are read before it is held), without O_SYNC/O_DSYNC (the
// kernel follows such a write with an fsync, which writes held blocks out), O_APPEND (the
// kernel gives every write its offset) or O_DIRECT (the writer's direct writes reach this file
// system as ordinary writes, held like any other; the held blocks it writes out are neither
// aligned nor sized for O_DIRECT).
static int backing_flags(int flags) {
    return (flags & ~(O_ACCMODE | O_SYNC | O_DSYNC | O_APPEND | O_DIRECT)) | O_RDWR;
}

static int pc_open(const char *path, struct fuse_file_info *fi) {
    if (is_control(path)) { fi->fh = (uint64_t)-1; fi->direct_io = 1; return 0; }
    int fd = openat(fs.backing, rel(path), backing_flags(fi->flags) & ~(O_CREAT | O_EXCL | O_TRUNC));
    if (fd < 0) return -errno;
    fi->fh = (uint64_t)fd;
    return 0;
}

static int pc_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    struct stat before;
    int existed = fstatat(fs.backing, rel(path), &before, AT_SYMLINK_NOFOLLOW) == 0;
    int fd = openat(fs.backing, rel(path), backing_flags(fi->flags) | O_CREAT, mode);
    if (fd < 0) return -errno;
    struct stat st;
    if (!existed && fstat(fd, &st) == 0) {
        // A new file: whatever is held for its inode number was a deleted file's.
        pthread_mutex_lock(&fs.lock);
        held_forget(st.st_dev, st.st_ino);
        pthread_mutex_unlock(&fs.lock);
    }
    fi->fh = (uint64_t)fd;
    return 0;
}

static int control_read(char *buf, size_t size, off_t offset) {
    char text[512];
    pthread_mutex_lock(&fs.lock);
    int n = snprintf(text, sizeof text,
                     "syncs %llu\ndir_syncs %llu\nbytes_written %llu\nbytes_synced %llu\nbytes_dropped %llu\ncuts %llu\n",
                     (unsigned long long)fs.syncs, (unsigned long long)fs.dir_syncs, (unsigned long long)fs.bytes_written,
                     (unsigned long long)fs.bytes_synced, (unsigned long long)fs.bytes_dropped, (unsigned long long)fs.cuts);
    pthread_mutex_unlock(&fs.lock);
    if (offset >= n) return 0;
    size_t length = (size_t)(n - offset) < size ? (size_t)(n - offset) : size;
    memcpy(buf, text + offset, length);
    return (int)length;
}

static int pc_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    if (is_control(path)) return control_read(buf, size, offset);
    int fd = (int)fi->fh;
    struct stat st;
    if (fstat(fd, &st) != 0) return -errno;
    pthread_mutex_lock(&fs.lock);
    struct held_file *f = held_find(st.st_dev, st.st_ino, 0, 0);
    off_t end = f ? f->size : st.st_size;
    if (offset >= end) { pthread_mutex_unlock(&fs.lock); return 0; }
    if ((off_t)size > end - offset) size = (size_t)(end - offset);
    size_t done = 0;
    int rc = 0;
    while (done < size) {
        off_t at = offset + (off_t)done;
        uint64_t index = (uint64_t)at / BLOCK;
        size_t within = (size_t)(at % BLOCK);
        size_t length = BLOCK - within < size - done ? BLOCK - within : size - done;
        struct held_block *b = f ? block_find(f, index) : NULL;
        if (b) {
            memcpy(buf + done, b->bytes + within, length);
        } else {
            ssize_t n = pread(fd, buf + done, length, at);
            if (n < 0) { rc = -errno; break; }
            if ((size_t)n < length) memset(buf + done + n, 0, length - (size_t)n);  // a hole past the synced end
        }
        done += length;
    }
    pthread_mutex_unlock(&fs.lock);
    return rc ? rc : (int)done;
}

static int control_write(const char *buf, size_t size) {
    if (size < 3 || strncmp(buf, "cut", 3) != 0) return -EINVAL;
    pthread_mutex_lock(&fs.lock);
    // Drop every held block and forget the files: their sizes come from the backing files again.
    struct held_file *f = fs.files;
    while (f) {
        struct held_file *next = f->next;
        held_drop(f);
        free(f);
        f = next;
    }
    fs.files = NULL;
    fs.cuts++;
    pthread_mutex_unlock(&fs.lock);
    return (int)size;
}

static int pc_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    if (is_control(path)) return control_write(buf, size);
    int fd = (int)fi->fh;
    struct stat st;
    if (fstat(fd, &st) != 0) return -errno;
    pthread_mutex_lock(&fs.lock);
    struct held_file *f = held_find(st.st_dev, st.st_ino, 1, st.st_size);
    if (!f) { pthread_mutex_unlock(&fs.lock); return -ENOMEM; }
    size_t done = 0;
    int rc = 0;
    while (done < size) {
        off_t at = offset + (off_t)done;
        uint64_t index = (uint64_t)at / BLOCK;
        size_t within = (size_t)(at % BLOCK);
        size_t length = BLOCK - within < size - done ? BLOCK - within : size - done;
        struct held_block *b = block_find(f, index);
        if (!b) {
            b = malloc(sizeof *b);
            if (!b) { rc = -ENOMEM; break; }
            b->index = index;
            memset(b->bytes, 0, BLOCK);
            // The block's synced content, unless this write covers all of it.
            if (length < BLOCK) {
                ssize_t n = pread(fd, b->bytes, BLOCK, (off_t)index * BLOCK);
                if (n < 0) { rc = -errno; free(b); break; }
            }
            b->next = f->buckets[index % BUCKETS];
            f->buckets[index % BUCKETS] = b;
            f->blocks++;
        }
        memcpy(b->bytes + within, buf + done, length);
        done += length;
    }
    if (offset + (off_t)done > f->size) f->size = offset + (off_t)done;
    fs.bytes_written += done;
    pthread_mutex_unlock(&fs.lock);
    return rc ? rc : (int)done;
}

static int pc_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)datasync;
    if (is_control(path)) return 0;
    int fd = (int)fi->fh;
    struct stat st;
    if (fstat(fd, &st) != 0) return -errno;
    pthread_mutex_lock(&fs.lock);
    struct held_file *f = held_find(st.st_dev, st.st_ino, 0, 0);
    int rc = f ? held_write_out(f, fd) : 0;
    fs.syncs++;
    pthread_mutex_unlock(&fs.lock);
    flush_delay();
    return rc;
}

static int pc_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)path; (void)datasync; (void)fi;
    pthread_mutex_lock(&fs.lock);
    fs.dir_syncs++;
    pthread_mutex_unlock(&fs.lock);
    flush_delay();
    return 0;
}

static int pc_release(const char *path, struct fuse_file_info *fi) {
    if (is_control(path)) return 0;
    // Closing a file does not sync it: its held blocks stay held (and are lost in a cut).
    close((int)fi->fh);
    return 0;
}

static int pc_statfs(const char *path, struct statvfs *st) {
    (void)path;
    return fstatvfs(fs.backing, st) == 0 ? 0 : -errno;
}

static int pc_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    (void)path;
    if (mode != 0) return -EOPNOTSUPP;
    // Allocation only grows the file: hold it as a size change written out with the data.
    struct stat st;
    if (fstat((int)fi->fh, &st) != 0) return -errno;
    pthread_mutex_lock(&fs.lock);
    struct held_file *f = held_find(st.st_dev, st.st_ino, 1, st.st_size);
    if (f && offset + length > f->size) f->size = offset + length;
    pthread_mutex_unlock(&fs.lock);
    return f ? 0 : -ENOMEM;
}

static void *pc_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    // Attributes and entries are asked for each time: sizes change with held writes and cuts.
    cfg->attr_timeout = 0;
    cfg->entry_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->use_ino = 1;
    return NULL;
}

static const struct fuse_operations operations = {
    .init = pc_init,
    .getattr = pc_getattr,
    .access = pc_access,
    .readlink = pc_readlink,
    .readdir = pc_readdir,
    .mkdir = pc_mkdir,
    .mknod = pc_mknod,
    .rmdir = pc_rmdir,
    .unlink = pc_unlink,
    .symlink = pc_symlink,
    .link = pc_link,
    .rename = pc_rename,
    .chmod = pc_chmod,
    .chown = pc_chown,
    .utimens = pc_utimens,
    .truncate = pc_truncate,
    .open = pc_open,
    .create = pc_create,
    .read = pc_read,
    .write = pc_write,
    .fsync = pc_fsync,
    .fsyncdir = pc_fsyncdir,
    .release = pc_release,
    .statfs = pc_statfs,
    .fallocate = pc_fallocate,
};

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s BACKING MOUNTPOINT [--flush-delay-us N] [FUSE options]\n", argv[0]);
        return 64;
    }
    fs.backing = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (fs.backing < 0) { perror(argv[1]); return 66; }
    // FUSE's own arguments: the program, the mount point, and every option but ours.
    char **args = calloc((size_t)argc + 1, sizeof *args);
    int count = 0;
    args[count++] = argv[0];
    args[count++] = argv[2];
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--flush-delay-us") == 0 && i + 1 < argc) {
            char *end;
            fs.flush_delay_us = strtol(argv[++i], &end, 10);
            if (*end || fs.flush_delay_us < 0 || fs.flush_delay_us > 10000000) {
                fprintf(stderr, "--flush-delay-us must be a number of microseconds from 0 to 10000000\n");
                return 64;
            }
        } else {
            args[count++] = argv[i];
        }
    }
    return fuse_main(count, args, &operations, NULL);
}
