/*
 * File status: stat, fstat, lstat, fstatat, access, faccessat, isatty, the
 * terminal settings (tcgetattr, tcsetattr), and the *64 names glibc uses with
 * _FILE_OFFSET_BITS=64.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "sear_rt.h"

int stat(const char *path, struct stat *st) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL) {
    errno = ENOENT;
    return -1;
  }
  __sear_node_stat(n, st);
  return 0;
}

int lstat(const char *path, struct stat *st) { return stat(path, st); }

int fstat(int fd, struct stat *st) {
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  return __sear_desc_stat(d, st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0')
    return fstat(dirfd, st);
  if (!__sear_names_cwd(dirfd) && path[0] != '/') {
    errno = ENOSYS;
    return -1;
  }
  return stat(path, st);
}

#if __SIZEOF_POINTER__ == 8
/* On x86-64, struct stat64 has the layout of struct stat. */
int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
int lstat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
  return fstatat(dirfd, path, (struct stat *)st, flags);
}
#else
/* On i386, struct stat64 has 64-bit inode, size and block fields: copied field by field. */
static int to_stat64(int result, const struct stat *s, struct stat64 *st) {
  if (result != 0)
    return result;
  memset(st, 0, sizeof *st);
  st->st_dev = s->st_dev;
  st->st_ino = s->st_ino;
  st->st_mode = s->st_mode;
  st->st_nlink = s->st_nlink;
  st->st_uid = s->st_uid;
  st->st_gid = s->st_gid;
  st->st_rdev = s->st_rdev;
  st->st_size = s->st_size;
  st->st_blksize = s->st_blksize;
  st->st_blocks = s->st_blocks;
  st->st_atim = s->st_atim;
  st->st_mtim = s->st_mtim;
  st->st_ctim = s->st_ctim;
  return 0;
}
int stat64(const char *path, struct stat64 *st) {
  struct stat s;
  return to_stat64(stat(path, &s), &s, st);
}
int lstat64(const char *path, struct stat64 *st) { return stat64(path, st); }
int fstat64(int fd, struct stat64 *st) {
  struct stat s;
  return to_stat64(fstat(fd, &s), &s, st);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
  struct stat s;
  return to_stat64(fstatat(dirfd, path, &s, flags), &s, st);
}
#endif

int access(const char *path, int mode) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL) {
    errno = ENOENT;
    return -1;
  }
  if ((mode & W_OK) && !(n->flags & (SEAR_NODE_WRITABLE | SEAR_NODE_DIR))) {
    errno = EACCES;
    return -1;
  }
  if ((mode & X_OK) && !(n->flags & SEAR_NODE_DIR)) {
    errno = EACCES;
    return -1;
  }
  return 0;
}

int faccessat(int dirfd, const char *path, int mode, int flags) {
  (void)flags;
  if (!__sear_names_cwd(dirfd) && path[0] != '/') {
    errno = ENOSYS;
    return -1;
  }
  return access(path, mode);
}

int euidaccess(const char *path, int mode) { return access(path, mode); }
int eaccess(const char *path, int mode) { return access(path, mode); }

/* A descriptor is a terminal when its file has a symbolic status of type character
 * device (--sym-stdin, --sym-stdout, --sym-files), as in KLEE's model, where isatty's
 * TCGETS forks on the type; every other descriptor is not (ENOTTY). */
int isatty(int fd) {
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return 0;
  if (__sear_desc_is_tty(d))
    return 1;
  errno = ENOTTY;
  return 0;
}

char *ttyname(int fd) {
  if (isatty(fd))
    errno = ENODEV; /* a modelled terminal has no device name */
  return NULL;
}

int ttyname_r(int fd, char *buf, size_t len) {
  (void)buf;
  (void)len;
  return isatty(fd) ? ENODEV : errno;
}

/* The settings of a modelled terminal: KLEE's (a Linux console's defaults). Only the
 * fields of the kernel's struct termios (the first 36 bytes, what TCGETS writes) are set. */
void __sear_fill_termios(struct termios *t) {
  static const unsigned char cc[19] = {0x03, 0x1c, 0x7f, 0x15, 0x04, 0x00, 0x01,
                                       0xff, 0x11, 0x13, 0x1a, 0xff, 0x12, 0x0f,
                                       0x17, 0x16, 0xff, 0x00, 0x00};
  t->c_iflag = 27906;
  t->c_oflag = 5;
  t->c_cflag = 1215;
  t->c_lflag = 35287;
  t->c_line = 0;
  memcpy(t->c_cc, cc, sizeof cc);
}

int tcgetattr(int fd, struct termios *t) {
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (!__sear_desc_is_tty(d)) {
    errno = ENOTTY;
    return -1;
  }
  memset(t, 0, sizeof *t);
  __sear_fill_termios(t);
  t->c_ispeed = B38400;
  t->c_ospeed = B38400;
  return 0;
}

int tcsetattr(int fd, int actions, const struct termios *t) {
  (void)actions;
  (void)t;
  struct sear_desc *d = __sear_get_desc(fd);
  if (d == NULL)
    return -1;
  if (!__sear_desc_is_tty(d)) {
    errno = ENOTTY;
    return -1;
  }
  return 0;
}

speed_t cfgetispeed(const struct termios *t) { return t->c_ispeed; }
speed_t cfgetospeed(const struct termios *t) { return t->c_ospeed; }
int cfsetispeed(struct termios *t, speed_t speed) {
  t->c_ispeed = speed;
  return 0;
}
int cfsetospeed(struct termios *t, speed_t speed) {
  t->c_ospeed = speed;
  return 0;
}
