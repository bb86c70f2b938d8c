/*
 * More of wchar.h in glibc's C locale (ASCII; wide characters >= 0x80 have no byte, bytes
 * >= 0x80 no wide character: EILSEQ), for libc++'s wide streams and strings: the wmem*
 * functions, wide comparison, wcsto* (the ASCII prefix converted by the narrow functions),
 * swprintf (an ASCII format printed by vsnprintf and widened; %ls and %lc are not
 * supported), and the wide stdio calls of one stream (fputwc, getwc, ungetwc: one byte per
 * character). Stream orientation (fwide) is not tracked: a stream takes both.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == c)
      return (wchar_t *)&s[i];
  return NULL;
}

int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

wchar_t *wmemcpy(wchar_t *dst, const wchar_t *src, size_t n) {
  return memcpy(dst, src, n * sizeof(wchar_t));
}

wchar_t *wmemmove(wchar_t *dst, const wchar_t *src, size_t n) {
  return memmove(dst, src, n * sizeof(wchar_t));
}

wchar_t *wmemset(wchar_t *s, wchar_t c, size_t n) {
  for (size_t i = 0; i < n; i++)
    s[i] = c;
  return s;
}

int wcscmp(const wchar_t *a, const wchar_t *b) {
  for (;; a++, b++) {
    if (*a != *b)
      return *a < *b ? -1 : 1;
    if (*a == L'\0')
      return 0;
  }
}

int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n) {
  for (; n > 0; n--, a++, b++) {
    if (*a != *b)
      return *a < *b ? -1 : 1;
    if (*a == L'\0')
      return 0;
  }
  return 0;
}

int wcscoll(const wchar_t *a, const wchar_t *b) { return wcscmp(a, b); }

size_t wcsxfrm(wchar_t *dst, const wchar_t *src, size_t n) {
  size_t len = wcslen(src);
  if (len < n)
    wmemcpy(dst, src, len + 1);
  return len;
}

wchar_t *wcschr(const wchar_t *s, wchar_t c) {
  for (;; s++) {
    if (*s == c)
      return (wchar_t *)s;
    if (*s == L'\0')
      return NULL;
  }
}

/* The ASCII prefix of s as a malloc'd narrow string (NULL when out of memory). */
static char *narrow_prefix(const wchar_t *s) {
  size_t n = 0;
  while (s[n] != L'\0' && (unsigned)s[n] < 0x80u)
    n++;
  char *buf = malloc(n + 1);
  if (buf == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    buf[i] = (char)s[i];
  buf[n] = '\0';
  return buf;
}

#define WCSTO(name, type, narrow, ...)                                                     \
  type name(const wchar_t *s, wchar_t **end, ##__VA_ARGS__) {                              \
    char *buf = narrow_prefix(s);                                                          \
    if (buf == NULL) {                                                                     \
      if (end != NULL)                                                                     \
        *end = (wchar_t *)s;                                                               \
      return 0;                                                                            \
    }                                                                                      \
    char *stop;                                                                            \
    type v = narrow;                                                                       \
    if (end != NULL)                                                                       \
      *end = (wchar_t *)s + (stop - buf);                                                  \
    free(buf);                                                                             \
    return v;                                                                              \
  }
WCSTO(wcstol, long, strtol(buf, &stop, base), int base)
WCSTO(wcstoul, unsigned long, strtoul(buf, &stop, base), int base)
WCSTO(wcstoll, long long, strtoll(buf, &stop, base), int base)
WCSTO(wcstoull, unsigned long long, strtoull(buf, &stop, base), int base)
WCSTO(wcstod, double, strtod(buf, &stop))
WCSTO(wcstof, float, strtof(buf, &stop))
WCSTO(wcstold, long double, strtold(buf, &stop))

int vswprintf(wchar_t *s, size_t n, const wchar_t *fmt, va_list ap) {
  size_t len = wcslen(fmt);
  char *nfmt = malloc(len + 1);
  if (nfmt == NULL)
    return -1;
  for (size_t i = 0; i <= len; i++) {
    if ((unsigned)fmt[i] >= 0x80u) {
      free(nfmt);
      errno = EILSEQ;
      return -1;
    }
    nfmt[i] = (char)fmt[i];
  }
  va_list copy;
  va_copy(copy, ap);
  int m = vsnprintf(NULL, 0, nfmt, copy);
  va_end(copy);
  char *out = m < 0 ? NULL : malloc((size_t)m + 1);
  if (out == NULL) {
    free(nfmt);
    return -1;
  }
  vsnprintf(out, (size_t)m + 1, nfmt, ap);
  free(nfmt);
  /* As glibc: the characters that fit, terminated; -1 when not all did. */
  size_t i = 0;
  for (; n > 0 && i < n - 1 && i < (size_t)m; i++)
    s[i] = (wchar_t)(unsigned char)out[i];
  if (n > 0)
    s[i] = L'\0';
  free(out);
  return (size_t)m < n ? m : -1;
}

int swprintf(wchar_t *s, size_t n, const wchar_t *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vswprintf(s, n, fmt, ap);
  va_end(ap);
  return r;
}

wint_t fputwc(wchar_t wc, FILE *f) {
  if ((unsigned)wc >= 0x80u) {
    errno = EILSEQ;
    f->_flags |= _IO_ERR_SEEN;
    return WEOF;
  }
  return fputc((int)wc, f) == EOF ? WEOF : (wint_t)wc;
}
wint_t putwc(wchar_t wc, FILE *f) { return fputwc(wc, f); }
wint_t putwchar(wchar_t wc) { return fputwc(wc, stdout); }

wint_t fgetwc(FILE *f) {
  int c = fgetc(f);
  if (c == EOF)
    return WEOF;
  if (c >= 0x80) {
    errno = EILSEQ;
    f->_flags |= _IO_ERR_SEEN;
    return WEOF;
  }
  return (wint_t)c;
}
wint_t getwc(FILE *f) { return fgetwc(f); }
wint_t getwchar(void) { return fgetwc(stdin); }

wint_t ungetwc(wint_t wc, FILE *f) {
  if (wc == WEOF || wc >= 0x80u)
    return WEOF;
  return ungetc((int)wc, f) == EOF ? WEOF : wc;
}

int fwide(FILE *f, int mode) {
  (void)f;
  return mode > 0 ? 1 : mode < 0 ? -1 : 0;
}
