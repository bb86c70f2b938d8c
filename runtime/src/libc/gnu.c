/*
 * glibc extensions programs call as functions: gnu_dev_major/minor/makedev (glibc's device
 * number encoding), strverscmp, the real-time signal range, getrandom (the model's bytes are
 * fixed, so runs are reproducible), the mount table (no table: setmntent fails) and iconv
 * (no conversions: iconv_open fails with EINVAL, as for an unknown pair of encodings).
 */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sysmacros.h>

unsigned gnu_dev_major(dev_t dev) {
  return (unsigned)(((dev >> 32) & 0xfffff000) | ((dev >> 8) & 0xfff));
}
unsigned gnu_dev_minor(dev_t dev) {
  return (unsigned)(((dev >> 12) & 0xffffff00) | (dev & 0xff));
}
dev_t gnu_dev_makedev(unsigned major, unsigned minor) {
  return ((dev_t)(major & 0xfff) << 8) | ((dev_t)(major & 0xfffff000) << 32) |
         (dev_t)(minor & 0xff) | ((dev_t)(minor & 0xffffff00) << 12);
}

int __libc_current_sigrtmin(void) { return 34; }
int __libc_current_sigrtmax(void) { return 64; }

/* The length of the digit run at s. */
static size_t digits(const unsigned char *s) {
  size_t n = 0;
  while (isdigit(s[n]))
    n++;
  return n;
}

/* strverscmp as glibc documents it: at the first difference, the digit runs containing it
 * compare numerically; a run with a leading zero (a zero followed by a digit) is a
 * fraction, below every integer, and of two fractions the one with more leading zeros is
 * smaller, then the digits compare as a string (a prefix first): 000 < 00 < 01 < 010 < 09
 * < 0 < 1 < 9 < 10. Outside digit runs the bytes compare as in strcmp. */
int strverscmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  size_t i = 0;
  while (p[i] == q[i]) {
    if (p[i] == '\0')
      return 0;
    i++;
  }
  size_t k = i;
  while (k > 0 && isdigit(p[k - 1]))
    k--;
  size_t np = digits(p + k), nq = digits(q + k);
  if (np == 0 || nq == 0)
    return p[i] - q[i];
  int fp = p[k] == '0' && np > 1, fq = q[k] == '0' && nq > 1;
  if (fp != fq)
    return fp ? -1 : 1;
  if (fp) {
    size_t zp = 0, zq = 0;
    while (zp < np && p[k + zp] == '0')
      zp++;
    while (zq < nq && q[k + zq] == '0')
      zq++;
    if (zp != zq)
      return zp > zq ? -1 : 1;
    for (size_t j = zp;; j++) {
      int ep = j >= np, eq = j >= nq;
      if (ep || eq)
        return ep && eq ? 0 : ep ? -1 : 1;
      if (p[k + j] != q[k + j])
        return p[k + j] - q[k + j];
    }
  }
  if (np != nq)
    return np < nq ? -1 : 1;
  return p[i] - q[i];
}

ssize_t getrandom(void *buf, size_t len, unsigned flags) {
  (void)flags;
  unsigned char *b = buf;
  for (size_t i = 0; i < len; i++)
    b[i] = (unsigned char)(i * 167 + 13);
  return (ssize_t)len;
}

FILE *setmntent(const char *file, const char *mode) {
  (void)file;
  (void)mode;
  errno = ENOENT;
  return NULL;
}
struct mntent *getmntent(FILE *f) {
  (void)f;
  return NULL;
}
int endmntent(FILE *f) {
  (void)f;
  return 1;
}
char *hasmntopt(const struct mntent *m, const char *opt) {
  (void)m;
  (void)opt;
  return NULL;
}

iconv_t iconv_open(const char *to, const char *from) {
  (void)to;
  (void)from;
  errno = EINVAL;
  return (iconv_t)-1;
}
size_t iconv(iconv_t cd, char **in, size_t *inleft, char **out, size_t *outleft) {
  (void)cd;
  (void)in;
  (void)inleft;
  (void)out;
  (void)outleft;
  errno = EBADF;
  return (size_t)-1;
}
int iconv_close(iconv_t cd) {
  (void)cd;
  errno = EBADF;
  return -1;
}
