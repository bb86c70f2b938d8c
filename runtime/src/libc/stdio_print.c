/*
 * The printf family on top of the formatter (vformat.c): streams and
 * descriptors get one write() per 128 formatted bytes; strings are filled up
 * to their size and always terminated. The fortified _chk entry points
 * (used by code compiled with _FORTIFY_SOURCE) forward to the plain ones;
 * the memory model still catches overflows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sear_rt.h"

#define ERR_SEEN 0x20

int vdprintf(int fd, const char *fmt, va_list ap) {
  struct sear_sink s;
  memset(&s, 0, sizeof s);
  s.fd = fd;
  return __sear_vformat(&s, fmt, ap);
}

int vfprintf(FILE *f, const char *fmt, va_list ap) {
  if (fileno(f) < 0)
    return -1;
  int r = vdprintf(f->_fileno, fmt, ap);
  if (r < 0)
    f->_flags |= ERR_SEEN;
  return r;
}

int vprintf(const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  struct sear_sink s;
  memset(&s, 0, sizeof s);
  s.fd = -1;
  s.buf = buf;
  s.cap = n;
  int r = __sear_vformat(&s, fmt, ap);
  if (n > 0)
    buf[s.len < n ? s.len : n - 1] = '\0';
  return r;
}

int vsprintf(char *buf, const char *fmt, va_list ap) {
  return vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
}

int vasprintf(char **out, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return -1;
  char *buf = malloc((size_t)n + 1);
  if (buf == NULL)
    return -1;
  vsnprintf(buf, (size_t)n + 1, fmt, ap);
  *out = buf;
  return n;
}

#define FORWARD(call)                                                          \
  va_list ap;                                                                  \
  va_start(ap, fmt);                                                           \
  int r = call;                                                                \
  va_end(ap);                                                                  \
  return r;

int printf(const char *fmt, ...) { FORWARD(vfprintf(stdout, fmt, ap)) }
int fprintf(FILE *f, const char *fmt, ...) { FORWARD(vfprintf(f, fmt, ap)) }
int dprintf(int fd, const char *fmt, ...) { FORWARD(vdprintf(fd, fmt, ap)) }
int sprintf(char *buf, const char *fmt, ...) { FORWARD(vsprintf(buf, fmt, ap)) }
int snprintf(char *buf, size_t n, const char *fmt, ...) { FORWARD(vsnprintf(buf, n, fmt, ap)) }
int asprintf(char **out, const char *fmt, ...) { FORWARD(vasprintf(out, fmt, ap)) }

/* ---- _FORTIFY_SOURCE entry points ----------------------------------------- */

int __printf_chk(int flag, const char *fmt, ...) {
  (void)flag;
  FORWARD(vfprintf(stdout, fmt, ap))
}
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  (void)flag;
  FORWARD(vfprintf(f, fmt, ap))
}
int __dprintf_chk(int fd, int flag, const char *fmt, ...) {
  (void)flag;
  FORWARD(vdprintf(fd, fmt, ap))
}
int __sprintf_chk(char *buf, int flag, size_t len, const char *fmt, ...) {
  (void)flag;
  FORWARD(vsnprintf(buf, len, fmt, ap))
}
int __snprintf_chk(char *buf, size_t n, int flag, size_t len, const char *fmt, ...) {
  (void)flag;
  (void)len;
  FORWARD(vsnprintf(buf, n, fmt, ap))
}
int __asprintf_chk(char **out, int flag, const char *fmt, ...) {
  (void)flag;
  FORWARD(vasprintf(out, fmt, ap))
}
int __vprintf_chk(int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(stdout, fmt, ap);
}
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(f, fmt, ap);
}
int __vsprintf_chk(char *buf, int flag, size_t len, const char *fmt, va_list ap) {
  (void)flag;
  return vsnprintf(buf, len, fmt, ap);
}
int __vsnprintf_chk(char *buf, size_t n, int flag, size_t len, const char *fmt, va_list ap) {
  (void)flag;
  (void)len;
  return vsnprintf(buf, n, fmt, ap);
}
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vasprintf(out, fmt, ap);
}

char *__fgets_chk(char *buf, size_t len, int n, FILE *f) {
  (void)len;
  return fgets(buf, n, f);
}
size_t __fread_chk(void *ptr, size_t len, size_t size, size_t n, FILE *f) {
  (void)len;
  return fread(ptr, size, n, f);
}
void *__memcpy_chk(void *dst, const void *src, size_t n, size_t len) {
  (void)len;
  return memcpy(dst, src, n);
}
void *__memmove_chk(void *dst, const void *src, size_t n, size_t len) {
  (void)len;
  return memmove(dst, src, n);
}
void *__memset_chk(void *dst, int c, size_t n, size_t len) {
  (void)len;
  return memset(dst, c, n);
}
void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t len) {
  (void)len;
  return mempcpy(dst, src, n);
}
char *__strcpy_chk(char *dst, const char *src, size_t len) {
  (void)len;
  return strcpy(dst, src);
}
char *__stpcpy_chk(char *dst, const char *src, size_t len) {
  (void)len;
  return stpcpy(dst, src);
}
char *__strncpy_chk(char *dst, const char *src, size_t n, size_t len) {
  (void)len;
  return strncpy(dst, src, n);
}
char *__strcat_chk(char *dst, const char *src, size_t len) {
  (void)len;
  return strcat(dst, src);
}
char *__strncat_chk(char *dst, const char *src, size_t n, size_t len) {
  (void)len;
  return strncat(dst, src, n);
}
