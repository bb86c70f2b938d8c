/*
 * The *at variants of the model's path functions (renameat, linkat, symlinkat, readlinkat,
 * mkdirat, fchmodat, fchownat, utimensat, futimens, mknodat, mkfifoat), statx, and
 * copy_file_range. The model's files are in one directory, the current one (SEAR_CWD): a
 * directory descriptor names it (AT_FDCWD, or a descriptor opened on "." or SEAR_CWD), as
 * for unlinkat and fstatat; any other is ENOSYS. Each then does what its plain function does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "sear_rt.h"

/* 0 when dirfd and path name something in the model's directory, else -1 (ENOSYS). */
static int in_cwd(int dirfd, const char *path) {
  if (path[0] == '/' || __sear_names_cwd(dirfd))
    return 0;
  errno = ENOSYS;
  return -1;
}

int renameat(int olddirfd, const char *from, int newdirfd, const char *to) {
  if (in_cwd(olddirfd, from) != 0 || in_cwd(newdirfd, to) != 0)
    return -1;
  return rename(from, to);
}

int renameat2(int olddirfd, const char *from, int newdirfd, const char *to, unsigned flags) {
  if (flags & RENAME_NOREPLACE) {
    if (in_cwd(newdirfd, to) != 0)
      return -1;
    if (__sear_find_node(to) != NULL) {
      errno = EEXIST;
      return -1;
    }
  } else if (flags != 0) {
    errno = EINVAL;
    return -1;
  }
  return renameat(olddirfd, from, newdirfd, to);
}

int linkat(int olddirfd, const char *from, int newdirfd, const char *to, int flags) {
  (void)flags;
  if (in_cwd(olddirfd, from) != 0 || in_cwd(newdirfd, to) != 0)
    return -1;
  return link(from, to);
}

int symlinkat(const char *target, int dirfd, const char *path) {
  if (in_cwd(dirfd, path) != 0)
    return -1;
  return symlink(target, path);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size) {
  if (in_cwd(dirfd, path) != 0)
    return -1;
  return readlink(path, buf, size);
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
  if (in_cwd(dirfd, path) != 0)
    return -1;
  return mkdir(path, mode);
}

int fchmodat(int dirfd, const char *path, mode_t mode, int flags) {
  (void)flags;
  if (in_cwd(dirfd, path) != 0)
    return -1;
  return chmod(path, mode);
}

int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags) {
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0')
    return fchown(dirfd, uid, gid);
  if (in_cwd(dirfd, path) != 0)
    return -1;
  return chown(path, uid, gid);
}

/* Special files cannot be created in the model: EPERM, as for an unprivileged user. */
int mknod(const char *path, mode_t mode, dev_t dev) {
  (void)mode;
  (void)dev;
  errno = __sear_find_node(path) != NULL ? EEXIST : EPERM;
  return -1;
}
int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev) {
  return in_cwd(dirfd, path) != 0 ? -1 : mknod(path, mode, dev);
}
int mkfifo(const char *path, mode_t mode) { return mknod(path, mode | S_IFIFO, 0); }
int mkfifoat(int dirfd, const char *path, mode_t mode) {
  return in_cwd(dirfd, path) != 0 ? -1 : mkfifo(path, mode);
}

/* The times of a timespec pair for utimes: UTIME_NOW is now; UTIME_OMIT keeps the file's. */
static void to_timevals(const struct timespec ts[2], const struct stat *st, struct timeval tv[2]) {
  struct timeval now;
  gettimeofday(&now, NULL);
  const struct timespec *old[2] = {&st->st_atim, &st->st_mtim};
  for (int i = 0; i < 2; i++) {
    const struct timespec *t = ts == NULL ? NULL : &ts[i];
    if (t == NULL || t->tv_nsec == UTIME_NOW) {
      tv[i] = now;
    } else {
      const struct timespec *src = t->tv_nsec == UTIME_OMIT ? old[i] : t;
      tv[i].tv_sec = src->tv_sec;
      tv[i].tv_usec = src->tv_nsec / 1000;
    }
  }
}

int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags) {
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0')
    return futimens(dirfd, times);
  if (in_cwd(dirfd, path) != 0)
    return -1;
  struct stat st;
  if (stat(path, &st) != 0)
    return -1;
  struct timeval tv[2];
  to_timevals(times, &st, tv);
  return utimes(path, tv);
}

/* Times of an open file: its node's status when it has one (files without a status keep
 * none). */
int futimens(int fd, const struct timespec times[2]) {
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (d->kind == SEAR_DESC_NODE && d->node != NULL && d->node->st != NULL) {
    struct timeval tv[2];
    to_timevals(times, d->node->st, tv);
    struct stat *st = d->node->st;
    st->st_atim.tv_sec = tv[0].tv_sec;
    st->st_atim.tv_nsec = tv[0].tv_usec * 1000;
    st->st_mtim.tv_sec = tv[1].tv_sec;
    st->st_mtim.tv_nsec = tv[1].tv_usec * 1000;
  }
  return 0;
}

/* statx from the model's stat: every basic field is filled in. */
int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx) {
  (void)mask;
  struct stat st;
  if (fstatat(dirfd, path, &st, flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) != 0)
    return -1;
  memset(sx, 0, sizeof *sx);
  sx->stx_mask = STATX_BASIC_STATS;
  sx->stx_blksize = (unsigned)st.st_blksize;
  sx->stx_nlink = (unsigned)st.st_nlink;
  sx->stx_uid = st.st_uid;
  sx->stx_gid = st.st_gid;
  sx->stx_mode = (unsigned short)st.st_mode;
  sx->stx_ino = st.st_ino;
  sx->stx_size = (unsigned long long)st.st_size;
  sx->stx_blocks = (unsigned long long)st.st_blocks;
  sx->stx_atime.tv_sec = st.st_atim.tv_sec;
  sx->stx_atime.tv_nsec = (unsigned)st.st_atim.tv_nsec;
  sx->stx_mtime.tv_sec = st.st_mtim.tv_sec;
  sx->stx_mtime.tv_nsec = (unsigned)st.st_mtim.tv_nsec;
  sx->stx_ctime.tv_sec = st.st_ctim.tv_sec;
  sx->stx_ctime.tv_nsec = (unsigned)st.st_ctim.tv_nsec;
  sx->stx_rdev_major = (unsigned)((st.st_rdev >> 8) & 0xfff);
  sx->stx_rdev_minor = (unsigned)((st.st_rdev & 0xff) | ((st.st_rdev >> 12) & 0xfff00));
  sx->stx_dev_major = (unsigned)((st.st_dev >> 8) & 0xfff);
  sx->stx_dev_minor = (unsigned)((st.st_dev & 0xff) | ((st.st_dev >> 12) & 0xfff00));
  return 0;
}

/* The kernel's in-kernel copy is not modelled: callers (cat, cp) fall back to read/write, as
 * on kernels without it. */
ssize_t copy_file_range(int in, off64_t *in_off, int out, off64_t *out_off, size_t len,
                        unsigned flags) {
  (void)in;
  (void)in_off;
  (void)out;
  (void)out_off;
  (void)len;
  (void)flags;
  errno = ENOSYS;
  return -1;
}
