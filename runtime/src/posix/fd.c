/*
 * File-descriptor system calls over the modelled file system: open, openat,
 * creat, read, write, pread, pwrite, readv, writev, lseek, close, dup, dup2,
 * dup3, fcntl, ftruncate, truncate, fsync, ioctl. Symbolic descriptor
 * numbers, sizes and offsets are fixed to one feasible value (with a
 * warning). Writes to stdout and stderr are handed to the engine, which
 * records them per path. With --fd-fail, reads, writes and closes can fail with EIO
 * (stdio's writes to stdout and stderr cannot: see __sear_stdio_write).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>

#include "sear_rt.h"

#define MAX_FILE_SIZE (1u << 20)

static long concrete(long v, const char *what) { return (long)__sear_concretize((uint64_t)v, what); }

/* True (and errno = EIO) if this call is the one the test makes fail. */
static int injected_failure(int *target, unsigned *calls) {
  if (__sear_fail.max_failures == 0 || target == NULL)
    return 0;
  (*calls)++;
  if (*target == (int)*calls) {
    __sear_fail.max_failures--;
    errno = EIO;
    return 1;
  }
  return 0;
}

/* ---- Opening ------------------------------------------------------------------- */

/* KLEE's permission check of a symbolic file, whose mode is symbolic: a request to write
 * (O_WRONLY, O_RDWR) needs some write bit, O_RDWR also some read bit (KLEE reads O_RDONLY,
 * which is 0, as no request). The test is one condition, so open forks once. */
static int permission_denied(int flags, mode_t mode) {
  int read_request = (flags & O_RDWR) != 0;
  int write_request = (flags & (O_WRONLY | O_RDWR)) != 0;
  return (read_request & ((mode & 0444) == 0)) | (write_request & ((mode & 0222) == 0));
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  flags = (int)concrete(flags, "open: symbolic flags concretized");
  if (path[0] == '\0') {
    errno = ENOENT;
    return -1;
  }
  int acc = flags & O_ACCMODE;
  int writing = acc == O_WRONLY || acc == O_RDWR;
  struct sear_node *n = __sear_find_node(path);
  if (n != NULL) {
    if ((flags & O_CREAT) && (flags & O_EXCL)) {
      errno = EEXIST;
      return -1;
    }
    if ((n->flags & SEAR_NODE_DIR) && writing) {
      errno = EISDIR;
      return -1;
    }
    if ((flags & O_DIRECTORY) && !(n->flags & SEAR_NODE_DIR)) {
      errno = ENOTDIR;
      return -1;
    }
    if (writing && !(n->flags & SEAR_NODE_WRITABLE)) {
      errno = EACCES;
      return -1;
    }
    if ((n->flags & SEAR_NODE_SYMBOLIC) && permission_denied(flags, n->st->st_mode)) {
      errno = EACCES;
      return -1;
    }
  } else {
    if (!(flags & O_CREAT)) {
      errno = ENOENT;
      return -1;
    }
    const char *name = __sear_cwd_name(path);
    if (strchr(name, '/') != NULL) {
      /* Files are only created in the current directory. */
      errno = ENOENT;
      return -1;
    }
    n = __sear_new_node(name, SEAR_NODE_WRITABLE, mode & ~022u);
    if (n == NULL)
      return -1;
  }
  int fd = __sear_alloc_fd(0);
  if (fd < 0)
    return -1;
  struct sear_desc *d = __sear_alloc_desc();
  if (d == NULL)
    return -1;
  if ((flags & O_TRUNC) && writing && !(n->flags & SEAR_NODE_NULL))
    n->size = 0;
  d->kind = SEAR_DESC_NODE;
  d->flags = flags & (O_ACCMODE | O_APPEND | O_NONBLOCK);
  d->node = n;
  d->offset = 0;
  __sear_fds[fd].desc = d;
  __sear_fds[fd].cloexec = (flags & O_CLOEXEC) != 0;
  return fd;
}

int open64(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return open(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  if (!__sear_names_cwd(dirfd) && path[0] != '/') {
    errno = ENOSYS;
    return -1;
  }
  return open(path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return openat(dirfd, path, flags, mode);
}

int creat(const char *path, mode_t mode) { return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return creat(path, mode); }

int close(int fd) {
  fd = (int)concrete(fd, "close: symbolic descriptor concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (injected_failure(__sear_fail.close_fail, &__sear_fail.closes))
    return -1;
  __sear_fds[fd].desc = NULL;
  __sear_release_desc(d);
  return 0;
}

/* ---- Reading and writing ---------------------------------------------------------- */

static ssize_t node_read(struct sear_node *n, void *buf, size_t count, off_t offset) {
  if (n->flags & SEAR_NODE_ZERO) {
    memset(buf, 0, count);
    return (ssize_t)count;
  }
  if ((n->flags & SEAR_NODE_NULL) || offset >= (off_t)n->size)
    return 0;
  size_t avail = n->size - (size_t)offset;
  size_t len = count < avail ? count : avail;
  memcpy(buf, n->data + offset, len);
  return (ssize_t)len;
}

static ssize_t node_write(struct sear_node *n, const void *buf, size_t count, off_t offset) {
  if (n->flags & SEAR_NODE_NULL)
    return (ssize_t)count;
  if ((size_t)offset + count > MAX_FILE_SIZE) {
    errno = EFBIG;
    return -1;
  }
  size_t end = (size_t)offset + count;
  if (end > n->capacity) {
    size_t cap = n->capacity < 64 ? 64 : n->capacity;
    while (cap < end)
      cap *= 2;
    unsigned char *grown = realloc(n->data, cap);
    if (grown == NULL) {
      errno = ENOSPC;
      return -1;
    }
    n->data = grown;
    n->capacity = cap;
  }
  if ((size_t)offset > n->size)
    memset(n->data + n->size, 0, (size_t)offset - n->size);
  memcpy(n->data + offset, buf, count);
  if (end > n->size)
    n->size = end;
  return (ssize_t)count;
}

ssize_t read(int fd, void *buf, size_t count) {
  fd = (int)concrete(fd, "read: symbolic descriptor concretized");
  count = (size_t)concrete((long)count, "read: symbolic size concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (count == 0)
    return 0;
  if (buf == NULL) {
    /* The kernel's answer for a buffer outside the address space (as KLEE's model). */
    errno = EFAULT;
    return -1;
  }
  if (injected_failure(__sear_fail.read_fail, &__sear_fail.reads))
    return -1;
  if (d->kind != SEAR_DESC_NODE || (d->flags & O_ACCMODE) == O_WRONLY) {
    errno = EBADF;
    return -1;
  }
  if (d->node->flags & SEAR_NODE_DIR) {
    errno = EISDIR;
    return -1;
  }
  ssize_t r = node_read(d->node, buf, count, d->offset);
  if (r > 0)
    d->offset += r;
  return r;
}

static ssize_t write_desc(int fd, const void *buf, size_t count, int from_stdio) {
  fd = (int)concrete(fd, "write: symbolic descriptor concretized");
  count = (size_t)concrete((long)count, "write: symbolic size concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (!(from_stdio && d->kind == SEAR_DESC_OUTPUT) &&
      injected_failure(__sear_fail.write_fail, &__sear_fail.writes))
    return -1;
  if ((d->flags & O_ACCMODE) == O_RDONLY) {
    errno = EBADF;
    return -1;
  }
  if (d->kind == SEAR_DESC_OUTPUT) {
    if (count > 0)
      __sear_write(d->stream, buf, count);
    return (ssize_t)count;
  }
  if (d->flags & O_APPEND)
    d->offset = (off_t)d->node->size;
  ssize_t r = node_write(d->node, buf, count, d->offset);
  if (r > 0)
    d->offset += r;
  return r;
}

ssize_t write(int fd, const void *buf, size_t count) { return write_desc(fd, buf, count, 0); }

ssize_t __sear_stdio_write(int fd, const void *buf, size_t count) {
  return write_desc(fd, buf, count, 1);
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
  offset = (off_t)concrete(offset, "pread: symbolic offset concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (d->kind != SEAR_DESC_NODE) {
    errno = ESPIPE;
    return -1;
  }
  if (offset < 0) {
    errno = EINVAL;
    return -1;
  }
  if (injected_failure(__sear_fail.read_fail, &__sear_fail.reads))
    return -1;
  if (d->node->flags & SEAR_NODE_DIR) {
    errno = EISDIR;
    return -1;
  }
  return node_read(d->node, buf, count, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  offset = (off_t)concrete(offset, "pwrite: symbolic offset concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (d->kind != SEAR_DESC_NODE) {
    errno = ESPIPE;
    return -1;
  }
  if (offset < 0 || (d->flags & O_ACCMODE) == O_RDONLY) {
    errno = offset < 0 ? EINVAL : EBADF;
    return -1;
  }
  if (injected_failure(__sear_fail.write_fail, &__sear_fail.writes))
    return -1;
  return node_write(d->node, buf, count, offset);
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t offset) {
  return pread(fd, buf, count, (off_t)offset);
}
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  return pwrite(fd, buf, count, (off_t)offset);
}

ssize_t readv(int fd, const struct iovec *iov, int n) {
  ssize_t total = 0;
  for (int i = 0; i < n; i++) {
    ssize_t r = read(fd, iov[i].iov_base, iov[i].iov_len);
    if (r < 0)
      return total > 0 ? total : -1;
    total += r;
    if ((size_t)r < iov[i].iov_len)
      break;
  }
  return total;
}

ssize_t writev(int fd, const struct iovec *iov, int n) {
  ssize_t total = 0;
  for (int i = 0; i < n; i++) {
    ssize_t r = write(fd, iov[i].iov_base, iov[i].iov_len);
    if (r < 0)
      return total > 0 ? total : -1;
    total += r;
  }
  return total;
}

off_t lseek(int fd, off_t offset, int whence) {
  fd = (int)concrete(fd, "lseek: symbolic descriptor concretized");
  offset = (off_t)concrete(offset, "lseek: symbolic offset concretized");
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (d->kind != SEAR_DESC_NODE) {
    errno = ESPIPE;
    return -1;
  }
  off_t base;
  if (whence == SEEK_SET)
    base = 0;
  else if (whence == SEEK_CUR)
    base = d->offset;
  else if (whence == SEEK_END)
    base = (off_t)d->node->size;
  else {
    errno = EINVAL;
    return -1;
  }
  if (base + offset < 0) {
    errno = EINVAL;
    return -1;
  }
  d->offset = base + offset;
  return d->offset;
}

off64_t lseek64(int fd, off64_t offset, int whence) { return lseek(fd, (off_t)offset, whence); }

/* ---- Descriptors ------------------------------------------------------------------ */

static int dup_to(int old, int target, int cloexec) {
  struct sear_desc *d = __sear_get_desc(old);
  if (d == NULL)
    return -1;
  if (target < 0 || target >= SEAR_MAX_FDS) {
    errno = EBADF;
    return -1;
  }
  if (target == old)
    return target;
  if (__sear_fds[target].desc != NULL)
    close(target);
  d->refs++;
  __sear_fds[target].desc = d;
  __sear_fds[target].cloexec = cloexec;
  return target;
}

int dup(int fd) {
  if (__sear_get_desc(fd) == NULL)
    return -1;
  int target = __sear_alloc_fd(0);
  return target < 0 ? -1 : dup_to(fd, target, 0);
}

int dup2(int fd, int target) {
  if (__sear_get_desc(fd) == NULL)
    return -1;
  return dup_to(fd, target, 0);
}

int dup3(int fd, int target, int flags) {
  if (fd == target) {
    errno = EINVAL;
    return -1;
  }
  if (__sear_get_desc(fd) == NULL)
    return -1;
  return dup_to(fd, target, (flags & O_CLOEXEC) != 0);
}

/* Whether fcntl's command takes a third argument (reading a missing variadic
 * argument would be an out-of-bounds access under sear). */
static int takes_argument(int cmd) {
  return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_SETFD || cmd == F_SETFL ||
         cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW;
}

int fcntl(int fd, int cmd, ...) {
  long arg = 0;
  if (takes_argument(cmd)) {
    va_list ap;
    va_start(ap, cmd);
    arg = va_arg(ap, long);
    va_end(ap);
  }
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  switch (cmd) {
  case F_DUPFD:
  case F_DUPFD_CLOEXEC: {
    int target = __sear_alloc_fd((int)arg);
    return target < 0 ? -1 : dup_to(fd, target, cmd == F_DUPFD_CLOEXEC);
  }
  case F_GETFD:
    return __sear_fds[fd].cloexec ? FD_CLOEXEC : 0;
  case F_SETFD:
    __sear_fds[fd].cloexec = (arg & FD_CLOEXEC) != 0;
    return 0;
  case F_GETFL:
    return d->flags;
  case F_SETFL:
    d->flags = (d->flags & O_ACCMODE) | ((int)arg & (O_APPEND | O_NONBLOCK));
    return 0;
  case F_GETLK:
    /* One process: no other lock can conflict with the one described. */
    if (arg != 0)
      ((struct flock *)arg)->l_type = F_UNLCK;
    return 0;
  case F_SETLK:
  case F_SETLKW:
    return 0;
  default:
    errno = EINVAL;
    return -1;
  }
}

int fcntl64(int fd, int cmd, ...) {
  long arg = 0;
  if (takes_argument(cmd)) {
    va_list ap;
    va_start(ap, cmd);
    arg = va_arg(ap, long);
    va_end(ap);
  }
  return fcntl(fd, cmd, arg);
}

/* Terminal requests answer as KLEE's model does for a file with a symbolic status: a
 * character device is a terminal (24x80, KLEE's termios), anything else is not (ENOTTY).
 * FIONREAD gives the bytes left to read in a file. */
int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  request = (unsigned long)concrete((long)request, "ioctl: symbolic request concretized");
  switch (request) {
  case TCGETS:
    if (!__sear_desc_is_tty(d))
      break;
    __sear_fill_termios((struct termios *)arg);
    return 0;
  case TCSETS:
  case TCSETSW:
  case TCSETSF:
  case TIOCSWINSZ:
    if (!__sear_desc_is_tty(d))
      break;
    return 0;
  case TIOCGWINSZ: {
    if (!__sear_desc_is_tty(d))
      break;
    struct winsize *ws = arg;
    memset(ws, 0, sizeof *ws);
    ws->ws_row = 24;
    ws->ws_col = 80;
    return 0;
  }
  case FIONREAD:
    if (d->kind != SEAR_DESC_NODE)
      break;
    *(int *)arg = (d->node->flags & SEAR_NODE_ZERO) || d->offset >= (off_t)d->node->size
                      ? 0
                      : (int)((off_t)d->node->size - d->offset);
    return 0;
  default:
    break;
  }
  errno = ENOTTY;
  return -1;
}

int ftruncate(int fd, off_t length) {
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (d->kind != SEAR_DESC_NODE || (d->flags & O_ACCMODE) == O_RDONLY || length < 0) {
    errno = EINVAL;
    return -1;
  }
  struct sear_node *n = d->node;
  if ((size_t)length > n->size) {
    unsigned char zero = 0;
    for (size_t at = n->size; at < (size_t)length; at++)
      if (node_write(n, &zero, 1, (off_t)at) < 0)
        return -1;
  }
  n->size = (size_t)length;
  return 0;
}

int ftruncate64(int fd, off64_t length) { return ftruncate(fd, (off_t)length); }

int truncate(const char *path, off_t length) {
  int fd = open(path, O_WRONLY);
  if (fd < 0)
    return -1;
  int r = ftruncate(fd, length);
  close(fd);
  return r;
}

int fsync(int fd) { return __sear_get_desc(fd) == NULL ? -1 : 0; }
int fdatasync(int fd) { return fsync(fd); }
void sync(void) {}
