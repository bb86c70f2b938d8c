/*
 * File-system information and advice: the model's files live on one file system, described
 * by statfs/fstatfs/statvfs/fstatvfs as an ext4 file system with 4 KiB blocks (the numbers are
 * fixed, so that tests replay alike); posix_fadvise and posix_fallocate/fallocate accept
 * every descriptor of the model (advice changes nothing; allocation grows nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "sear_rt.h"

#define EXT4_MAGIC 0xEF53
#define BLOCK 4096
#define BLOCKS 1048576 /* 4 GiB */
#define FREE_BLOCKS 524288
#define FILES 262144
#define FREE_FILES 262000
#define NAME_MAX_LEN 255

static void fill_statfs(struct statfs *s) {
  memset(s, 0, sizeof *s);
  s->f_type = EXT4_MAGIC;
  s->f_bsize = BLOCK;
  s->f_frsize = BLOCK;
  s->f_blocks = BLOCKS;
  s->f_bfree = FREE_BLOCKS;
  s->f_bavail = FREE_BLOCKS;
  s->f_files = FILES;
  s->f_ffree = FREE_FILES;
  s->f_namelen = NAME_MAX_LEN;
}

static void fill_statvfs(struct statvfs *s) {
  memset(s, 0, sizeof *s);
  s->f_bsize = BLOCK;
  s->f_frsize = BLOCK;
  s->f_blocks = BLOCKS;
  s->f_bfree = FREE_BLOCKS;
  s->f_bavail = FREE_BLOCKS;
  s->f_files = FILES;
  s->f_ffree = FREE_FILES;
  s->f_favail = FREE_FILES;
  s->f_namemax = NAME_MAX_LEN;
}

/* 0 when path names a file of the model (or its directory), else -1 with ENOENT. */
static int known_path(const char *path) {
  struct stat st;
  return stat(path, &st);
}

int statfs(const char *path, struct statfs *s) {
  if (known_path(path) != 0)
    return -1;
  fill_statfs(s);
  return 0;
}

int fstatfs(int fd, struct statfs *s) {
  if (__sear_get_desc(fd) == NULL)
    return -1;
  fill_statfs(s);
  return 0;
}

int statvfs(const char *path, struct statvfs *s) {
  if (known_path(path) != 0)
    return -1;
  fill_statvfs(s);
  return 0;
}

int fstatvfs(int fd, struct statvfs *s) {
  if (__sear_get_desc(fd) == NULL)
    return -1;
  fill_statvfs(s);
  return 0;
}

/* On i386 the *64 structure differs; not modelled there (docs/limits.md). */
#if __SIZEOF_POINTER__ == 8
/* The *64 structures have the same layout on x86-64. */
int statfs64(const char *path, struct statfs64 *s) { return statfs(path, (struct statfs *)s); }
int fstatfs64(int fd, struct statfs64 *s) { return fstatfs(fd, (struct statfs *)s); }
int statvfs64(const char *path, struct statvfs64 *s) {
  return statvfs(path, (struct statvfs *)s);
}
int fstatvfs64(int fd, struct statvfs64 *s) { return fstatvfs(fd, (struct statvfs *)s); }
#endif

int posix_fadvise(int fd, off_t offset, off_t len, int advice) {
  (void)offset;
  (void)len;
  (void)advice;
  return __sear_get_desc(fd) == NULL ? EBADF : 0;
}
int posix_fadvise64(int fd, off64_t offset, off64_t len, int advice) {
  return posix_fadvise(fd, (off_t)offset, (off_t)len, advice);
}
