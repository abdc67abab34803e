/* delayfs.c: an LD_PRELOAD shim that makes the files under one folder
 * behave like files on a network file system (NFS, Lustre) as far as
 * latency goes: each open and each read of such a file first sleeps a
 * fixed time, on the calling thread, as a client waits for the server's
 * round trip.  Threads that read in parallel overlap their waits, as they
 * would on a real mount.  Used by bench/nfs-bench.sh; see bench/README.md
 * for what it models and what it does not.
 *
 *   cc -O2 -Wall -Wextra -shared -fPIC -o delayfs.so delayfs.c -ldl
 *   DELAYFS_PREFIX=/path/to/run DELAYFS_US=1000 LD_PRELOAD=./delayfs.so cmd ...
 *
 * Environment:
 *   DELAYFS_PREFIX  the folder (made absolute and resolved with realpath at
 *                   start-up); a path is under it when, made absolute, it
 *                   starts with the folder and a '/'.  Unset: nothing is
 *                   delayed, calls are still counted if asked.
 *   DELAYFS_US      microseconds to sleep before each such call (default 0)
 *   DELAYFS_STATS   1: at exit, print one line of counts on stderr
 *   DELAYFS_STATS_FILE=PATH: append that line to PATH instead
 *
 * Delayed (and counted): open, open64, openat, openat64 and their
 * _FORTIFY_SOURCE forms (__open_2, ...) of a path under the prefix,
 * whether or not the open succeeds; read, pread, pread64, readv, preadv,
 * preadv64 and the __read_chk / __pread_chk forms on a descriptor that was
 * opened under the prefix (each call, the one that returns 0 at the end of
 * the file included).
 *
 * Counted, not delayed: mmap of such a descriptor (its page faults cannot
 * be delayed from here: a tool that maps the files escapes the model, and
 * the count says so), and the metadata calls on such paths or descriptors
 * (stat, lstat, fstat, fstatat, statx and their 64 forms): a real network
 * file system answers many of them from its attribute cache, so they are
 * left out of the model, but the count shows how many a tool makes.
 *
 * Not seen at all: what glibc does inside itself without going through its
 * exported symbols (fopen/fread/fgets/fclose, opendir/readdir, posix_spawn
 * ...), and raw syscall(2) use.  nfs-bench.sh checks, with strace, that the
 * opens and reads of the run's files the shim counted are all there are.
 *
 * The descriptor table: one byte per descriptor below FD_MAX, C11 atomics
 * (no lock is needed: an entry is written by the thread that got the
 * descriptor from the kernel, after the call that created it, and cleared
 * by the thread that closes it, before the close, so a descriptor number
 * the kernel hands out again cannot inherit a stale mark).  close, dup,
 * dup2, dup3, fcntl(F_DUPFD, F_DUPFD_CLOEXEC) and close_range keep it
 * right.  Descriptors at or above FD_MAX are not tracked (counted as
 * "untracked").  A descriptor closed by glibc inside fclose() or similar
 * would keep its mark; the tools measured here do not fdopen the run's
 * files.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define FD_MAX 65536

static _Atomic unsigned char fdtab[FD_MAX];
static char prefix[PATH_MAX];
static size_t prefix_len;               /* 0: no prefix, nothing is delayed */
static struct timespec delay;
static long delay_us;

enum { C_OPEN, C_OPEN_FAIL, C_READ, C_PREAD, C_READV, C_BYTES, C_MMAP, C_META,
       C_UNTRACKED, C_SLEPT_NS, C_N };
static _Atomic unsigned long long cnt[C_N];

#define ADD(c, n) atomic_fetch_add_explicit(&cnt[c], (unsigned long long)(n), memory_order_relaxed)

/* ------------------------------------------------------------ real calls */
#define REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	static ret (*get_##name(void))(__VA_ARGS__) \
	{ \
		if (!real_##name) \
			real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name); \
		return real_##name; \
	}

REAL(int, open, const char *, int, ...)
REAL(int, open64, const char *, int, ...)
REAL(int, openat, int, const char *, int, ...)
REAL(int, openat64, int, const char *, int, ...)
REAL(int, __open_2, const char *, int)
REAL(int, __open64_2, const char *, int)
REAL(int, __openat_2, int, const char *, int)
REAL(int, __openat64_2, int, const char *, int)
REAL(ssize_t, read, int, void *, size_t)
REAL(ssize_t, __read_chk, int, void *, size_t, size_t)
REAL(ssize_t, pread, int, void *, size_t, off_t)
REAL(ssize_t, pread64, int, void *, size_t, off64_t)
REAL(ssize_t, __pread_chk, int, void *, size_t, off_t, size_t)
REAL(ssize_t, __pread64_chk, int, void *, size_t, off64_t, size_t)
REAL(ssize_t, readv, int, const struct iovec *, int)
REAL(ssize_t, preadv, int, const struct iovec *, int, off_t)
REAL(ssize_t, preadv64, int, const struct iovec *, int, off64_t)
REAL(int, close, int)
REAL(int, close_range, unsigned int, unsigned int, int)
REAL(int, dup, int)
REAL(int, dup2, int, int)
REAL(int, dup3, int, int, int)
REAL(int, fcntl, int, int, ...)
REAL(int, fcntl64, int, int, ...)
REAL(void *, mmap, void *, size_t, int, int, int, off_t)
REAL(void *, mmap64, void *, size_t, int, int, int, off64_t)
REAL(int, stat, const char *, struct stat *)
REAL(int, lstat, const char *, struct stat *)
REAL(int, fstat, int, struct stat *)
REAL(int, fstatat, int, const char *, struct stat *, int)
REAL(int, stat64, const char *, struct stat64 *)
REAL(int, lstat64, const char *, struct stat64 *)
REAL(int, fstat64, int, struct stat64 *)
REAL(int, fstatat64, int, const char *, struct stat64 *, int)
REAL(int, statx, int, const char *, int, unsigned int, struct statx *)

/* ------------------------------------------------------------ set-up, stats */
__attribute__((constructor)) static void delayfs_init(void)
{
	const char *p = getenv("DELAYFS_PREFIX"), *us = getenv("DELAYFS_US");
	if (p && *p && realpath(p, prefix)) {
		prefix_len = strlen(prefix);
		while (prefix_len > 1 && prefix[prefix_len - 1] == '/')
			prefix[--prefix_len] = 0;
	}
	delay_us = us ? strtol(us, NULL, 10) : 0;
	if (delay_us < 0)
		delay_us = 0;
	delay.tv_sec = delay_us / 1000000;
	delay.tv_nsec = delay_us % 1000000 * 1000;
	/* sleep as long as asked, not up to 50 us more (the default timer
	 * slack); threads created later inherit it */
	if (delay_us > 0)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

__attribute__((destructor)) static void delayfs_fini(void)
{
	const char *f = getenv("DELAYFS_STATS_FILE"), *s = getenv("DELAYFS_STATS");
	char line[512];
	FILE *out;
	int n;

	if (!(f && *f) && !(s && strcmp(s, "1") == 0))
		return;
#define G(c) atomic_load(&cnt[c])
	n = snprintf(line, sizeof line,
		"delayfs: pid %ld delay_us %ld opens %llu open_failed %llu reads %llu preads %llu readvs %llu "
		"bytes %llu mmaps %llu meta %llu untracked %llu waits %llu slept_s %.3f\n",
		(long)getpid(), delay_us, G(C_OPEN), G(C_OPEN_FAIL), G(C_READ), G(C_PREAD), G(C_READV),
		G(C_BYTES), G(C_MMAP), G(C_META), G(C_UNTRACKED),
		G(C_OPEN) + G(C_READ) + G(C_PREAD) + G(C_READV), G(C_SLEPT_NS) / 1e9);
#undef G
	if (n <= 0)
		return;
	if (f && *f && (out = fopen(f, "a"))) {
		fputs(line, out);
		fclose(out);
	} else {
		if (write(2, line, (size_t)n) < 0)
			return;
	}
}

/* ------------------------------------------------------------ helpers */
static void wait_net(void)
{
	struct timespec t0, t1, d = delay;
	if (delay_us <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &d, &d) == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ADD(C_SLEPT_NS, (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
}

static int prefix_match(const char *abs)
{
	return strncmp(abs, prefix, prefix_len) == 0 && (abs[prefix_len] == '/' || abs[prefix_len] == 0);
}

static int fd_marked(int fd)
{
	return fd >= 0 && fd < FD_MAX && atomic_load_explicit(&fdtab[fd], memory_order_relaxed);
}

static void fd_set_mark(int fd, int on)
{
	if (fd < 0)
		return;
	if (fd < FD_MAX)
		atomic_store_explicit(&fdtab[fd], (unsigned char)(on != 0), memory_order_relaxed);
	else if (on)
		ADD(C_UNTRACKED, 1);
}

/* Is PATH, relative to DIRFD, under the prefix?  Lexical: an absolute
 * path is compared as it is; a relative one is put after the working
 * folder (AT_FDCWD) or after the folder DIRFD was opened on (a marked
 * DIRFD is under the prefix by definition; otherwise /proc/self/fd says
 * which folder it is). */
static int under_prefix(int dirfd, const char *path)
{
	char buf[PATH_MAX * 2], link[64];
	ssize_t n;

	if (!prefix_len || !path)
		return 0;
	if (path[0] == '/')
		return prefix_match(path);
	if (dirfd == AT_FDCWD) {
		if (!getcwd(buf, PATH_MAX))
			return 0;
	} else {
		if (fd_marked(dirfd))
			return 1;
		snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
		n = readlink(link, buf, PATH_MAX - 1);
		if (n <= 0)
			return 0;
		buf[n] = 0;
	}
	n = (ssize_t)strlen(buf);
	snprintf(buf + n, sizeof buf - (size_t)n, "/%s", path);
	return prefix_match(buf);
}

static int opened(int fd, int under)
{
	if (under) {
		ADD(C_OPEN, 1);
		if (fd < 0)
			ADD(C_OPEN_FAIL, 1);
	}
	fd_set_mark(fd, under);
	return fd;
}

static ssize_t got(ssize_t r, int kind)
{
	ADD(kind, 1);
	if (r > 0)
		ADD(C_BYTES, r);
	return r;
}

/* O_CREAT and O_TMPFILE take a mode */
#define MODE_ARG(flags, mode) \
	do { \
		if (((flags) & O_CREAT) || ((flags) & O_TMPFILE) == O_TMPFILE) { \
			va_list ap; \
			va_start(ap, flags); \
			mode = (mode_t)va_arg(ap, int); \
			va_end(ap); \
		} \
	} while (0)

/* ------------------------------------------------------------ opens */
#define OPEN_BODY(getter, ...) \
	int under = under_prefix(AT_FDCWD, path), saved, fd; \
	if (under) \
		wait_net(); \
	fd = getter()(__VA_ARGS__); \
	saved = errno; \
	opened(fd, under); \
	errno = saved; \
	return fd

#define OPENAT_BODY(getter, ...) \
	int under = under_prefix(dirfd, path), saved, fd; \
	if (under) \
		wait_net(); \
	fd = getter()(__VA_ARGS__); \
	saved = errno; \
	opened(fd, under); \
	errno = saved; \
	return fd

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	OPEN_BODY(get_open, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	OPEN_BODY(get_open64, path, flags, mode);
}

int __open_2(const char *path, int flags)
{
	OPEN_BODY(get___open_2, path, flags);
}

int __open64_2(const char *path, int flags)
{
	OPEN_BODY(get___open64_2, path, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	OPENAT_BODY(get_openat, dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	OPENAT_BODY(get_openat64, dirfd, path, flags, mode);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	OPENAT_BODY(get___openat_2, dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
	OPENAT_BODY(get___openat64_2, dirfd, path, flags);
}

/* ------------------------------------------------------------ reads */
#define READ_BODY(kind, call) \
	if (!fd_marked(fd)) \
		return call; \
	wait_net(); \
	{ \
		ssize_t r = call; \
		int saved = errno; \
		got(r, kind); \
		errno = saved; \
		return r; \
	}

ssize_t read(int fd, void *buf, size_t n)
{
	READ_BODY(C_READ, get_read()(fd, buf, n));
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	READ_BODY(C_READ, get___read_chk()(fd, buf, n, buflen));
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	READ_BODY(C_PREAD, get_pread()(fd, buf, n, off));
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	READ_BODY(C_PREAD, get_pread64()(fd, buf, n, off));
}

ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	READ_BODY(C_PREAD, get___pread_chk()(fd, buf, n, off, buflen));
}

ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t buflen)
{
	READ_BODY(C_PREAD, get___pread64_chk()(fd, buf, n, off, buflen));
}

ssize_t readv(int fd, const struct iovec *iov, int cnt_)
{
	READ_BODY(C_READV, get_readv()(fd, iov, cnt_));
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt_, off_t off)
{
	READ_BODY(C_READV, get_preadv()(fd, iov, cnt_, off));
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt_, off64_t off)
{
	READ_BODY(C_READV, get_preadv64()(fd, iov, cnt_, off));
}

/* ------------------------------------------------------------ the fd table */
int close(int fd)
{
	fd_set_mark(fd, 0);             /* before: the number may be reused at once */
	return get_close()(fd);
}

int close_range(unsigned int first, unsigned int last, int flags)
{
	int r = get_close_range()(first, last, flags), saved = errno;
	if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC))
		for (unsigned int fd = first; fd <= last && fd < FD_MAX; fd++)
			atomic_store_explicit(&fdtab[fd], 0, memory_order_relaxed);
	errno = saved;
	return r;
}

static int duped(int old, int fd)
{
	int saved = errno;
	if (fd >= 0)
		fd_set_mark(fd, fd_marked(old));
	errno = saved;
	return fd;
}

int dup(int old)
{
	return duped(old, get_dup()(old));
}

int dup2(int old, int new_)
{
	return duped(old, get_dup2()(old, new_));
}

int dup3(int old, int new_, int flags)
{
	return duped(old, get_dup3()(old, new_, flags));
}

#define FCNTL_BODY(getter) \
	va_list ap; \
	void *arg; \
	int r; \
	va_start(ap, cmd); \
	arg = va_arg(ap, void *);       /* an int or a pointer: one register either way */ \
	va_end(ap); \
	r = getter()(fd, cmd, arg); \
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) \
		duped(fd, r); \
	return r

int fcntl(int fd, int cmd, ...)
{
	FCNTL_BODY(get_fcntl);
}

int fcntl64(int fd, int cmd, ...)
{
	FCNTL_BODY(get_fcntl64);
}

/* ------------------------------------------------------------ counted only */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd_marked(fd))
		ADD(C_MMAP, 1);
	return get_mmap()(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	if (fd_marked(fd))
		ADD(C_MMAP, 1);
	return get_mmap64()(addr, len, prot, flags, fd, off);
}

/* a path may be NULL with AT_EMPTY_PATH, whatever the headers declare */
static int empty(const char *path)
{
	return !path || !*path;
}

#define META_PATH(dirfd, path) \
	do { \
		if (under_prefix(dirfd, path)) \
			ADD(C_META, 1); \
	} while (0)
#define META_FD(fd) \
	do { \
		if (fd_marked(fd)) \
			ADD(C_META, 1); \
	} while (0)

/* stat, lstat, fstat, fstatat and their 64-bit twins: counted, not delayed */
#define STAT_FAMILY(sfx, st_t) \
int stat##sfx(const char *path, st_t *st) \
{ \
	META_PATH(AT_FDCWD, path); \
	return get_stat##sfx()(path, st); \
} \
int lstat##sfx(const char *path, st_t *st) \
{ \
	META_PATH(AT_FDCWD, path); \
	return get_lstat##sfx()(path, st); \
} \
int fstat##sfx(int fd, st_t *st) \
{ \
	META_FD(fd); \
	return get_fstat##sfx()(fd, st); \
} \
int fstatat##sfx(int dirfd, const char *path, st_t *st, int flags) \
{ \
	if ((flags & AT_EMPTY_PATH) && empty(path)) \
		META_FD(dirfd); \
	else \
		META_PATH(dirfd, path); \
	return get_fstatat##sfx()(dirfd, path, st, flags); \
}

STAT_FAMILY(, struct stat)
STAT_FAMILY(64, struct stat64)

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx)
{
	if ((flags & AT_EMPTY_PATH) && empty(path))
		META_FD(dirfd);
	else
		META_PATH(dirfd, path);
	return get_statx()(dirfd, path, flags, mask, stx);
}
