/*
 * File status: stat, fstat, lstat, fstatat, access, faccessat, isatty, and
 * the *64 names glibc uses with _FILE_OFFSET_BITS=64.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
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
  if (dirfd != AT_FDCWD && path[0] != '/') {
    errno = ENOSYS;
    return -1;
  }
  return stat(path, st);
}

/* On x86-64, struct stat64 has the layout of struct stat. */
int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
int lstat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
  return fstatat(dirfd, path, (struct stat *)st, flags);
}

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
  if (dirfd != AT_FDCWD && path[0] != '/') {
    errno = ENOSYS;
    return -1;
  }
  return access(path, mode);
}

int euidaccess(const char *path, int mode) { return access(path, mode); }
int eaccess(const char *path, int mode) { return access(path, mode); }

/* No modelled descriptor is a terminal. */
int isatty(int fd) {
  if (__sear_get_desc(fd) != NULL)
    errno = ENOTTY;
  return 0;
}

char *ttyname(int fd) {
  (void)isatty(fd);
  return NULL;
}
