/*
 * strings.h: case-insensitive comparison (ASCII), bzero/bcopy and ffs.
 */
#include <string.h>
#include <strings.h>

/* Branch-free, so case folding itself never forks. */
static int lower(int c) { return c + ((unsigned)(c - 'A') < 26u) * ('a' - 'A'); }

int strcasecmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  for (;; p++, q++) {
    int c = lower(*p), d = lower(*q);
    if (c != d)
      return c - d;
    if (c == '\0')
      return 0;
  }
}

int strncasecmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  for (; n > 0; n--, p++, q++) {
    int c = lower(*p), d = lower(*q);
    if (c != d)
      return c - d;
    if (c == '\0')
      return 0;
  }
  return 0;
}

char *strcasestr(const char *hay, const char *needle) {
  if (*needle == '\0')
    return (char *)hay;
  for (; *hay != '\0'; hay++) {
    size_t j = 0;
    while (needle[j] != '\0' &&
           lower((unsigned char)hay[j]) == lower((unsigned char)needle[j]))
      j++;
    if (needle[j] == '\0')
      return (char *)hay;
  }
  return NULL;
}

void bzero(void *s, size_t n) { memset(s, 0, n); }

void bcopy(const void *src, void *dst, size_t n) { memmove(dst, src, n); }

int ffs(int i) {
  unsigned u = (unsigned)i;
  if (u == 0)
    return 0;
  int n = 1;
  while ((u & 1u) == 0) {
    u >>= 1;
    n++;
  }
  return n;
}

int ffsl(long i) {
  unsigned long u = (unsigned long)i;
  if (u == 0)
    return 0;
  int n = 1;
  while ((u & 1ul) == 0) {
    u >>= 1;
    n++;
  }
  return n;
}

int ffsll(long long i) { return ffsl((long)i); }
