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

/* glibc's messages for Linux's error numbers (41 and 58 are unused). */
static const char *const messages[134] = {
    [0] = "Success",
    [EPERM] = "Operation not permitted",
    [ENOENT] = "No such file or directory",
    [ESRCH] = "No such process",
    [EINTR] = "Interrupted system call",
    [EIO] = "Input/output error",
    [ENXIO] = "No such device or address",
    [E2BIG] = "Argument list too long",
    [ENOEXEC] = "Exec format error",
    [EBADF] = "Bad file descriptor",
    [ECHILD] = "No child processes",
    [EAGAIN] = "Resource temporarily unavailable",
    [ENOMEM] = "Cannot allocate memory",
    [EACCES] = "Permission denied",
    [EFAULT] = "Bad address",
    [ENOTBLK] = "Block device required",
    [EBUSY] = "Device or resource busy",
    [EEXIST] = "File exists",
    [EXDEV] = "Invalid cross-device link",
    [ENODEV] = "No such device",
    [ENOTDIR] = "Not a directory",
    [EISDIR] = "Is a directory",
    [EINVAL] = "Invalid argument",
    [ENFILE] = "Too many open files in system",
    [EMFILE] = "Too many open files",
    [ENOTTY] = "Inappropriate ioctl for device",
    [ETXTBSY] = "Text file busy",
    [EFBIG] = "File too large",
    [ENOSPC] = "No space left on device",
    [ESPIPE] = "Illegal seek",
    [EROFS] = "Read-only file system",
    [EMLINK] = "Too many links",
    [EPIPE] = "Broken pipe",
    [EDOM] = "Numerical argument out of domain",
    [ERANGE] = "Numerical result out of range",
    [EDEADLK] = "Resource deadlock avoided",
    [ENAMETOOLONG] = "File name too long",
    [ENOLCK] = "No locks available",
    [ENOSYS] = "Function not implemented",
    [ENOTEMPTY] = "Directory not empty",
    [ELOOP] = "Too many levels of symbolic links",
    [ENOMSG] = "No message of desired type",
    [EIDRM] = "Identifier removed",
    [ECHRNG] = "Channel number out of range",
    [EL2NSYNC] = "Level 2 not synchronized",
    [EL3HLT] = "Level 3 halted",
    [EL3RST] = "Level 3 reset",
    [ELNRNG] = "Link number out of range",
    [EUNATCH] = "Protocol driver not attached",
    [ENOCSI] = "No CSI structure available",
    [EL2HLT] = "Level 2 halted",
    [EBADE] = "Invalid exchange",
    [EBADR] = "Invalid request descriptor",
    [EXFULL] = "Exchange full",
    [ENOANO] = "No anode",
    [EBADRQC] = "Invalid request code",
    [EBADSLT] = "Invalid slot",
    [EBFONT] = "Bad font file format",
    [ENOSTR] = "Device not a stream",
    [ENODATA] = "No data available",
    [ETIME] = "Timer expired",
    [ENOSR] = "Out of streams resources",
    [ENONET] = "Machine is not on the network",
    [ENOPKG] = "Package not installed",
    [EREMOTE] = "Object is remote",
    [ENOLINK] = "Link has been severed",
    [EADV] = "Advertise error",
    [ESRMNT] = "Srmount error",
    [ECOMM] = "Communication error on send",
    [EPROTO] = "Protocol error",
    [EMULTIHOP] = "Multihop attempted",
    [EDOTDOT] = "RFS specific error",
    [EBADMSG] = "Bad message",
    [EOVERFLOW] = "Value too large for defined data type",
    [ENOTUNIQ] = "Name not unique on network",
    [EBADFD] = "File descriptor in bad state",
    [EREMCHG] = "Remote address changed",
    [ELIBACC] = "Can not access a needed shared library",
    [ELIBBAD] = "Accessing a corrupted shared library",
    [ELIBSCN] = ".lib section in a.out corrupted",
    [ELIBMAX] = "Attempting to link in too many shared libraries",
    [ELIBEXEC] = "Cannot exec a shared library directly",
    [EILSEQ] = "Invalid or incomplete multibyte or wide character",
    [ERESTART] = "Interrupted system call should be restarted",
    [ESTRPIPE] = "Streams pipe error",
    [EUSERS] = "Too many users",
    [ENOTSOCK] = "Socket operation on non-socket",
    [EDESTADDRREQ] = "Destination address required",
    [EMSGSIZE] = "Message too long",
    [EPROTOTYPE] = "Protocol wrong type for socket",
    [ENOPROTOOPT] = "Protocol not available",
    [EPROTONOSUPPORT] = "Protocol not supported",
    [ESOCKTNOSUPPORT] = "Socket type not supported",
    [EOPNOTSUPP] = "Operation not supported",
    [EPFNOSUPPORT] = "Protocol family not supported",
    [EAFNOSUPPORT] = "Address family not supported by protocol",
    [EADDRINUSE] = "Address already in use",
    [EADDRNOTAVAIL] = "Cannot assign requested address",
    [ENETDOWN] = "Network is down",
    [ENETUNREACH] = "Network is unreachable",
    [ENETRESET] = "Network dropped connection on reset",
    [ECONNABORTED] = "Software caused connection abort",
    [ECONNRESET] = "Connection reset by peer",
    [ENOBUFS] = "No buffer space available",
    [EISCONN] = "Transport endpoint is already connected",
    [ENOTCONN] = "Transport endpoint is not connected",
    [ESHUTDOWN] = "Cannot send after transport endpoint shutdown",
    [ETOOMANYREFS] = "Too many references: cannot splice",
    [ETIMEDOUT] = "Connection timed out",
    [ECONNREFUSED] = "Connection refused",
    [EHOSTDOWN] = "Host is down",
    [EHOSTUNREACH] = "No route to host",
    [EALREADY] = "Operation already in progress",
    [EINPROGRESS] = "Operation now in progress",
    [ESTALE] = "Stale file handle",
    [EUCLEAN] = "Structure needs cleaning",
    [ENOTNAM] = "Not a XENIX named type file",
    [ENAVAIL] = "No XENIX semaphores available",
    [EISNAM] = "Is a named type file",
    [EREMOTEIO] = "Remote I/O error",
    [EDQUOT] = "Disk quota exceeded",
    [ENOMEDIUM] = "No medium found",
    [EMEDIUMTYPE] = "Wrong medium type",
    [ECANCELED] = "Operation canceled",
    [ENOKEY] = "Required key not available",
    [EKEYEXPIRED] = "Key has expired",
    [EKEYREVOKED] = "Key has been revoked",
    [EKEYREJECTED] = "Key was rejected by service",
    [EOWNERDEAD] = "Owner died",
    [ENOTRECOVERABLE] = "State not recoverable",
    [ERFKILL] = "Operation not possible due to RF-kill",
    [EHWPOISON] = "Memory page has hardware error",
};

static char unknown_buf[32];

char *strerror(int code) {
  if (code >= 0 && code < (int)(sizeof messages / sizeof messages[0]) && messages[code] != NULL)
    return (char *)messages[code];
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
/* error() and error_at_line(): the program's name, "FILE:LINE: " for the latter, the
 * message, the error number's text. */
static void verror_at(int status, int errnum, const char *file, unsigned line, const char *fmt,
                      va_list ap) {
  fflush(stdout);
  if (error_print_progname != NULL)
    error_print_progname();
  else
    fprintf(stderr, "%s:%s", program_invocation_name, file != NULL ? "" : " ");
  if (file != NULL)
    fprintf(stderr, "%s:%u: ", file, line);
  vfprintf(stderr, fmt, ap);
  if (errnum != 0)
    fprintf(stderr, ": %s", strerror(errnum));
  fputc('\n', stderr);
  error_message_count++;
  if (status != 0)
    exit(status);
}

void error(int status, int errnum, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(status, errnum, NULL, 0, fmt, ap);
  va_end(ap);
}

void error_at_line(int status, int errnum, const char *file, unsigned line, const char *fmt,
                   ...) {
  static const char *last_file;
  static unsigned last_line;
  if (error_one_per_line && last_file != NULL && line == last_line &&
      (file == last_file || strcmp(file, last_file) == 0))
    return;
  last_file = file;
  last_line = line;
  va_list ap;
  va_start(ap, fmt);
  verror_at(status, errnum, file, line, fmt, ap);
  va_end(ap);
}
