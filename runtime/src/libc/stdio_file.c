/*
 * stdio streams over the modelled file descriptors.
 *
 * A FILE is glibc's `struct _IO_FILE`, so that glibc's inline macros work:
 * the read and write buffer pointers are always NULL, which sends
 * getc_unlocked/putc_unlocked to __uflow/__overflow, and the EOF and error
 * bits are glibc's _IO_EOF_SEEN and _IO_ERR_SEEN in _flags. Streams are
 * unbuffered: every output call becomes one write() at once, so output is
 * never lost and never reordered, and exit() has nothing to flush.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sear_rt.h"

#define EOF_SEEN 0x10 /* glibc's _IO_EOF_SEEN */
#define ERR_SEEN 0x20 /* glibc's _IO_ERR_SEEN */
#define NO_READS 0x4  /* glibc's _IO_NO_READS: opened write-only */
#define NO_WRITES 0x8 /* glibc's _IO_NO_WRITES: opened read-only */
#define MAX_STREAMS 20

struct sear_file {
  FILE f; /* first: programs only see &f */
  int in_use;
  int unget; /* pushed-back byte or -1 */
};

#define STREAM(fd, mode) {{._flags = (int)0xfbad0000 | (mode), ._fileno = (fd)}, 1, -1}
static struct sear_file streams[MAX_STREAMS] = {STREAM(0, NO_WRITES), STREAM(1, NO_READS),
                                                STREAM(2, NO_READS)};

/* The _flags bits of a stream opened with open()'s flags. */
static int access_bits(int flags) {
  switch (flags & O_ACCMODE) {
  case O_RDONLY:
    return NO_WRITES;
  case O_WRONLY:
    return NO_READS;
  default:
    return 0;
  }
}

FILE *stdin = &streams[0].f;
FILE *stdout = &streams[1].f;
FILE *stderr = &streams[2].f;

static struct sear_file *file_of(FILE *f) { return (struct sear_file *)f; }

/* ---- Opening and closing --------------------------------------------------- */

static int mode_flags(const char *mode) {
  int flags;
  switch (mode[0]) {
  case 'r':
    flags = O_RDONLY;
    break;
  case 'w':
    flags = O_WRONLY | O_CREAT | O_TRUNC;
    break;
  case 'a':
    flags = O_WRONLY | O_CREAT | O_APPEND;
    break;
  default:
    return -1;
  }
  for (const char *m = mode + 1; *m != '\0' && *m != ','; m++) {
    if (*m == '+')
      flags = (flags & ~O_ACCMODE) | O_RDWR;
    else if (*m == 'x')
      flags |= O_EXCL;
    else if (*m == 'e')
      flags |= O_CLOEXEC;
  }
  return flags;
}

static FILE *new_stream(int fd, int flags) {
  for (int i = 0; i < MAX_STREAMS; i++) {
    struct sear_file *s = &streams[i];
    if (!s->in_use) {
      memset(&s->f, 0, sizeof s->f);
      s->f._flags = (int)0xfbad0000 | access_bits(flags);
      s->f._fileno = fd;
      s->in_use = 1;
      s->unget = -1;
      return &s->f;
    }
  }
  errno = EMFILE;
  return NULL;
}

FILE *fopen(const char *path, const char *mode) {
  int flags = mode_flags(mode);
  if (flags < 0) {
    errno = EINVAL;
    return NULL;
  }
  int fd = open(path, flags, 0666);
  if (fd < 0)
    return NULL;
  FILE *f = new_stream(fd, flags);
  if (f == NULL)
    close(fd);
  return f;
}

FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

FILE *fdopen(int fd, const char *mode) {
  int flags = mode_flags(mode);
  if (flags < 0) {
    errno = EINVAL;
    return NULL;
  }
  if (fcntl(fd, F_GETFL) < 0)
    return NULL;
  return new_stream(fd, flags);
}

int fclose(FILE *f) {
  struct sear_file *s = file_of(f);
  if (!s->in_use) {
    errno = EBADF;
    return EOF;
  }
  s->in_use = 0;
  return close(f->_fileno) == 0 ? 0 : EOF;
}

FILE *freopen(const char *path, const char *mode, FILE *f) {
  struct sear_file *s = file_of(f);
  int flags = mode_flags(mode);
  if (s->in_use)
    close(f->_fileno);
  s->in_use = 0;
  if (flags < 0 || path == NULL) {
    errno = EINVAL;
    return NULL;
  }
  int fd = open(path, flags, 0666);
  if (fd < 0)
    return NULL;
  f->_flags = (int)0xfbad0000 | access_bits(flags);
  f->_fileno = fd;
  s->in_use = 1;
  s->unget = -1;
  return f;
}

FILE *freopen64(const char *path, const char *mode, FILE *f) { return freopen(path, mode, f); }

FILE *popen(const char *command, const char *mode) {
  (void)command;
  (void)mode;
  errno = ENOSYS;
  return NULL;
}

int pclose(FILE *f) {
  (void)f;
  errno = ECHILD;
  return -1;
}

FILE *tmpfile(void) {
  errno = ENOSYS;
  return NULL;
}

int remove(const char *path) { return unlink(path); }

/* ---- State ----------------------------------------------------------------- */

int feof(FILE *f) { return (f->_flags & EOF_SEEN) != 0; }
int ferror(FILE *f) { return (f->_flags & ERR_SEEN) != 0; }
void clearerr(FILE *f) { f->_flags &= ~(EOF_SEEN | ERR_SEEN); }
int fileno(FILE *f) {
  if (!file_of(f)->in_use) {
    errno = EBADF;
    return -1;
  }
  return f->_fileno;
}
int feof_unlocked(FILE *f) { return feof(f); }
int ferror_unlocked(FILE *f) { return ferror(f); }
void clearerr_unlocked(FILE *f) { clearerr(f); }
int fileno_unlocked(FILE *f) { return fileno(f); }

int fflush(FILE *f) {
  (void)f;
  return 0;
}
int fflush_unlocked(FILE *f) { return fflush(f); }

int setvbuf(FILE *f, char *buf, int mode, size_t size) {
  (void)f;
  (void)buf;
  (void)size;
  return (mode == _IONBF || mode == _IOLBF || mode == _IOFBF) ? 0 : -1;
}
void setbuf(FILE *f, char *buf) { (void)setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }
void setbuffer(FILE *f, char *buf, size_t size) { (void)setvbuf(f, buf, _IOFBF, size); }
void setlinebuf(FILE *f) { (void)setvbuf(f, NULL, _IOLBF, 0); }

void flockfile(FILE *f) { (void)f; }
void funlockfile(FILE *f) { (void)f; }
int ftrylockfile(FILE *f) {
  (void)f;
  return 0;
}

/* ---- Positioning ------------------------------------------------------------- */

int fseeko(FILE *f, off_t offset, int whence) {
  struct sear_file *s = file_of(f);
  if (whence == SEEK_CUR && s->unget >= 0)
    offset -= 1;
  if (lseek(f->_fileno, offset, whence) < 0)
    return -1;
  s->unget = -1;
  f->_flags &= ~EOF_SEEN;
  return 0;
}

int fseek(FILE *f, long offset, int whence) { return fseeko(f, offset, whence); }
/* The large-file variants take 64-bit offsets (off_t is 32 bits on i386). */
int fseeko64(FILE *f, off64_t offset, int whence) { return fseeko(f, (off_t)offset, whence); }

off_t ftello(FILE *f) {
  off_t pos = lseek(f->_fileno, 0, SEEK_CUR);
  if (pos >= 0 && file_of(f)->unget >= 0)
    pos--;
  return pos;
}

long ftell(FILE *f) { return ftello(f); }
off64_t ftello64(FILE *f) { return ftello(f); }
void rewind(FILE *f) {
  (void)fseeko(f, 0, SEEK_SET);
  f->_flags &= ~ERR_SEEN;
}

int fgetpos(FILE *f, fpos_t *pos) {
  off_t p = ftello(f);
  if (p < 0)
    return -1;
  memset(pos, 0, sizeof *pos);
  pos->__pos = p;
  return 0;
}

int fsetpos(FILE *f, const fpos_t *pos) { return fseeko(f, pos->__pos, SEEK_SET); }

/* ---- Reading ------------------------------------------------------------------ */

int fgetc(FILE *f) {
  struct sear_file *s = file_of(f);
  if (!s->in_use) {
    errno = EBADF;
    return EOF;
  }
  if (s->unget >= 0) {
    int c = s->unget;
    s->unget = -1;
    return c;
  }
  unsigned char c;
  ssize_t n = read(f->_fileno, &c, 1);
  if (n == 1)
    return c;
  f->_flags |= n == 0 ? EOF_SEEN : ERR_SEEN;
  return EOF;
}

int getc(FILE *f) { return fgetc(f); }
int _IO_getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }
int fgetc_unlocked(FILE *f) { return fgetc(f); }
int getc_unlocked(FILE *f) { return fgetc(f); }
int getchar_unlocked(void) { return fgetc(stdin); }
int __uflow(FILE *f) { return fgetc(f); }

int ungetc(int c, FILE *f) {
  struct sear_file *s = file_of(f);
  if (c == EOF || s->unget >= 0)
    return EOF;
  s->unget = (unsigned char)c;
  f->_flags &= ~EOF_SEEN;
  return (unsigned char)c;
}

char *fgets(char *buf, int n, FILE *f) {
  int i = 0;
  if (n <= 0)
    return NULL;
  while (i < n - 1) {
    int c = fgetc(f);
    if (c == EOF) {
      if (i == 0 || ferror(f))
        return NULL;
      break;
    }
    buf[i++] = (char)c;
    if (c == '\n')
      break;
  }
  buf[i] = '\0';
  return buf;
}

char *fgets_unlocked(char *buf, int n, FILE *f) { return fgets(buf, n, f); }

ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f) {
  if (line == NULL || cap == NULL) {
    errno = EINVAL;
    return -1;
  }
  size_t len = 0;
  for (;;) {
    int c = fgetc(f);
    if (c == EOF) {
      if (len == 0)
        return -1;
      break;
    }
    if (*line == NULL || len + 2 > *cap) {
      size_t grown = *cap < 60 ? 120 : *cap * 2;
      char *p = realloc(*line, grown);
      if (p == NULL) {
        errno = ENOMEM;
        return -1;
      }
      *line = p;
      *cap = grown;
    }
    (*line)[len++] = (char)c;
    if (c == delim)
      break;
  }
  (*line)[len] = '\0';
  return (ssize_t)len;
}

ssize_t getline(char **line, size_t *cap, FILE *f) { return getdelim(line, cap, '\n', f); }

size_t fread(void *ptr, size_t size, size_t n, FILE *f) {
  struct sear_file *s = file_of(f);
  size_t total = size * n, done = 0;
  if (total == 0)
    return 0;
  if (!s->in_use) {
    errno = EBADF;
    return 0;
  }
  unsigned char *p = ptr;
  if (s->unget >= 0) {
    p[done++] = (unsigned char)s->unget;
    s->unget = -1;
  }
  while (done < total) {
    ssize_t r = read(f->_fileno, p + done, total - done);
    if (r <= 0) {
      f->_flags |= r == 0 ? EOF_SEEN : ERR_SEEN;
      break;
    }
    done += (size_t)r;
  }
  return done / size;
}

size_t fread_unlocked(void *ptr, size_t size, size_t n, FILE *f) { return fread(ptr, size, n, f); }

/* ---- Writing ------------------------------------------------------------------ */

/* Writes all n bytes; sets the error flag on failure. */
static int write_all(FILE *f, const void *p, size_t n) {
  if (!file_of(f)->in_use) {
    errno = EBADF;
    return -1;
  }
  size_t done = 0;
  while (done < n) {
    ssize_t r = __sear_stdio_write(f->_fileno, (const char *)p + done, n - done);
    if (r <= 0) {
      f->_flags |= ERR_SEEN;
      return -1;
    }
    done += (size_t)r;
  }
  return 0;
}

size_t fwrite(const void *ptr, size_t size, size_t n, FILE *f) {
  size_t total = size * n;
  if (total == 0)
    return 0;
  return write_all(f, ptr, total) == 0 ? n : 0;
}

size_t fwrite_unlocked(const void *ptr, size_t size, size_t n, FILE *f) {
  return fwrite(ptr, size, n, f);
}

int fputc(int c, FILE *f) {
  unsigned char ch = (unsigned char)c;
  return write_all(f, &ch, 1) == 0 ? ch : EOF;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int _IO_putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }
int fputc_unlocked(int c, FILE *f) { return fputc(c, f); }
int putc_unlocked(int c, FILE *f) { return fputc(c, f); }
int putchar_unlocked(int c) { return fputc(c, stdout); }
int __overflow(FILE *f, int c) { return c == EOF ? 0 : fputc(c, f); }

int fputs(const char *s, FILE *f) { return write_all(f, s, strlen(s)) == 0 ? 1 : EOF; }
int fputs_unlocked(const char *s, FILE *f) { return fputs(s, f); }

int puts(const char *s) {
  if (fputs(s, stdout) == EOF)
    return EOF;
  return fputc('\n', stdout) == EOF ? EOF : 1;
}
