/*
 * errno (glibc's `(*__errno_location())`), strerror with glibc's messages for
 * the errors the model produces, perror, and err.h/error.h reporting.
 */
#include <err.h>
#include <errno.h>
#include <error.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sear_rt.h"

static int errno_value;

int *__errno_location(void) { return &errno_value; }

int klee_get_errno(void) { return errno_value; }

/* The program name, set from argv[0] by the runtime's entry. */
char *program_invocation_name = "prog";
char *program_invocation_short_name = "prog";

struct message {
  int code;
  const char *text;
};

static const struct message messages[] = {
    {0, "Success"},
    {EPERM, "Operation not permitted"},
    {ENOENT, "No such file or directory"},
    {ESRCH, "No such process"},
    {EINTR, "Interrupted system call"},
    {EIO, "Input/output error"},
    {ENXIO, "No such device or address"},
    {E2BIG, "Argument list too long"},
    {ENOEXEC, "Exec format error"},
    {EBADF, "Bad file descriptor"},
    {ECHILD, "No child processes"},
    {EAGAIN, "Resource temporarily unavailable"},
    {ENOMEM, "Cannot allocate memory"},
    {EACCES, "Permission denied"},
    {EFAULT, "Bad address"},
    {EBUSY, "Device or resource busy"},
    {EEXIST, "File exists"},
    {EXDEV, "Invalid cross-device link"},
    {ENODEV, "No such device"},
    {ENOTDIR, "Not a directory"},
    {EISDIR, "Is a directory"},
    {EINVAL, "Invalid argument"},
    {ENFILE, "Too many open files in system"},
    {EMFILE, "Too many open files"},
    {ENOTTY, "Inappropriate ioctl for device"},
    {EFBIG, "File too large"},
    {ENOSPC, "No space left on device"},
    {ESPIPE, "Illegal seek"},
    {EROFS, "Read-only file system"},
    {EMLINK, "Too many links"},
    {EPIPE, "Broken pipe"},
    {EDOM, "Numerical argument out of domain"},
    {ERANGE, "Numerical result out of range"},
    {ENAMETOOLONG, "File name too long"},
    {ENOSYS, "Function not implemented"},
    {ENOTEMPTY, "Directory not empty"},
    {ENOTSUP, "Operation not supported"},
    {EOVERFLOW, "Value too large for defined data type"},
    {EILSEQ, "Invalid or incomplete multibyte or wide character"},
};

static char unknown_buf[32];

char *strerror(int code) {
  for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
    if (messages[i].code == code)
      return (char *)messages[i].text;
  snprintf(unknown_buf, sizeof unknown_buf, "Unknown error %d", code);
  return unknown_buf;
}

/* The GNU variant (glibc's strerror_r with _GNU_SOURCE). */
char *strerror_r(int code, char *buf, size_t len) {
  (void)buf;
  (void)len;
  return strerror(code);
}

int __xpg_strerror_r(int code, char *buf, size_t len) {
  const char *text = strerror(code);
  size_t n = strlen(text);
  if (len == 0)
    return ERANGE;
  if (n >= len) {
    memcpy(buf, text, len - 1);
    buf[len - 1] = '\0';
    return ERANGE;
  }
  memcpy(buf, text, n + 1);
  return 0;
}

const char *strerrorname_np(int code) {
  (void)code;
  return NULL;
}

void perror(const char *s) {
  const char *text = strerror(errno_value);
  if (s != NULL && *s != '\0')
    fprintf(stderr, "%s: %s\n", s, text);
  else
    fprintf(stderr, "%s\n", text);
}

static void report(int with_errno, int code, const char *fmt, va_list ap) {
  fflush(stdout);
  fprintf(stderr, "%s: ", program_invocation_short_name);
  if (fmt != NULL)
    vfprintf(stderr, fmt, ap);
  if (with_errno)
    fprintf(stderr, fmt != NULL ? ": %s" : "%s", strerror(code));
  fputc('\n', stderr);
}

void vwarn(const char *fmt, va_list ap) { report(1, errno_value, fmt, ap); }
void vwarnx(const char *fmt, va_list ap) { report(0, 0, fmt, ap); }

void warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(1, errno_value, fmt, ap);
  va_end(ap);
}

void warnx(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(0, 0, fmt, ap);
  va_end(ap);
}

void verr(int status, const char *fmt, va_list ap) {
  report(1, errno_value, fmt, ap);
  exit(status);
}

void verrx(int status, const char *fmt, va_list ap) {
  report(0, 0, fmt, ap);
  exit(status);
}

void err(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(1, errno_value, fmt, ap);
  va_end(ap);
  exit(status);
}

void errx(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(0, 0, fmt, ap);
  va_end(ap);
  exit(status);
}

unsigned int error_message_count;
int error_one_per_line;
void (*error_print_progname)(void);

/* glibc's error(): "prog: message[: strerror(errnum)]\n", exits if status. */
void error(int status, int errnum, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  if (error_print_progname != NULL)
    error_print_progname();
  else
    fprintf(stderr, "%s: ", program_invocation_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (errnum != 0)
    fprintf(stderr, ": %s", strerror(errnum));
  fputc('\n', stderr);
  error_message_count++;
  if (status != 0)
    exit(status);
}
