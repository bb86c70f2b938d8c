/*
 * string.h for symbolic execution: every function walks its inputs one byte
 * at a time and stops at the first byte that decides the result, so a
 * symbolic string of n bytes yields at most n + 1 paths per scan (strlen of a
 * 4-byte symbolic string ending in NUL: 5 paths). memcpy, memmove and memset
 * are implemented by the engine.
 */
#include <stdlib.h>
#include <string.h>

#include "sear_rt.h"

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n] != '\0')
    n++;
  return n;
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0')
    n++;
  return n;
}

/* One fork per compared byte: either the bytes differ (the result is their
 * difference) or they are equal, and then the end of the strings is decided by
 * the other string's byte. */
int strcmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  for (;; p++, q++) {
    unsigned char c = *p, d = *q;
    if (c != d)
      return c - d;
    if (c == '\0')
      return 0;
  }
}

int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  for (; n > 0; n--, p++, q++) {
    unsigned char c = *p, d = *q;
    if (c != d)
      return c - d;
    if (c == '\0')
      return 0;
  }
  return 0;
}

int strcoll(const char *a, const char *b) { return strcmp(a, b); }

size_t strxfrm(char *dst, const char *src, size_t n) {
  size_t len = strlen(src);
  if (n > 0) {
    size_t i = 0;
    for (; i + 1 < n && src[i] != '\0'; i++)
      dst[i] = src[i];
    dst[i] = '\0';
  }
  return len;
}

char *strcpy(char *dst, const char *src) {
  size_t i = 0;
  for (;; i++) {
    dst[i] = src[i];
    if (src[i] == '\0')
      return dst;
  }
}

char *stpcpy(char *dst, const char *src) {
  for (;; dst++, src++) {
    *dst = *src;
    if (*src == '\0')
      return dst;
  }
}

char *strncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++)
    dst[i] = src[i];
  for (; i < n; i++)
    dst[i] = '\0';
  return dst;
}

char *stpncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++)
    dst[i] = src[i];
  char *end = dst + i;
  for (; i < n; i++)
    dst[i] = '\0';
  return end;
}

char *strcat(char *dst, const char *src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}

char *strncat(char *dst, const char *src, size_t n) {
  char *d = dst + strlen(dst);
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++)
    d[i] = src[i];
  d[i] = '\0';
  return dst;
}

char *strchr(const char *s, int c) {
  char ch = (char)c;
  for (;; s++) {
    if (*s == ch)
      return (char *)s;
    if (*s == '\0')
      return NULL;
  }
}

char *strchrnul(const char *s, int c) {
  char ch = (char)c;
  for (;; s++)
    if (*s == ch || *s == '\0')
      return (char *)s;
}

char *index(const char *s, int c) { return strchr(s, c); }

char *strrchr(const char *s, int c) {
  char ch = (char)c;
  const char *last = NULL;
  for (;; s++) {
    if (*s == ch)
      last = s;
    if (*s == '\0')
      return (char *)last;
  }
}

char *rindex(const char *s, int c) { return strrchr(s, c); }

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  for (size_t i = 0; i < n; i++)
    if (p[i] == ch)
      return (void *)(p + i);
  return NULL;
}

void *rawmemchr(const void *s, int c) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  while (*p != ch)
    p++;
  return (void *)p;
}

void *memrchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  while (n > 0) {
    n--;
    if (p[n] == ch)
      return (void *)(p + n);
  }
  return NULL;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (size_t i = 0; i < n; i++)
    if (p[i] != q[i])
      return p[i] - q[i];
  return 0;
}

int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

void *mempcpy(void *dst, const void *src, size_t n) {
  return (char *)memcpy(dst, src, n) + n;
}

void *memccpy(void *dst, const void *src, int c, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++) {
    d[i] = s[i];
    if (s[i] == (unsigned char)c)
      return d + i + 1;
  }
  return NULL;
}

void *memmem(const void *hay, size_t hlen, const void *needle, size_t nlen) {
  const unsigned char *h = hay, *n = needle;
  if (nlen == 0)
    return (void *)h;
  for (size_t i = 0; i + nlen <= hlen; i++) {
    size_t j = 0;
    while (j < nlen && h[i + j] == n[j])
      j++;
    if (j == nlen)
      return (void *)(h + i);
  }
  return NULL;
}

char *strstr(const char *hay, const char *needle) {
  if (*needle == '\0')
    return (char *)hay;
  for (; *hay != '\0'; hay++) {
    size_t j = 0;
    while (needle[j] != '\0' && hay[j] == needle[j])
      j++;
    if (needle[j] == '\0')
      return (char *)hay;
  }
  return NULL;
}

/* Marks the bytes of set, and NUL when with_nul, in a 256-entry table: the membership of a
 * symbolic byte is then one table read and one fork (in the set or not), however many bytes
 * the set has, instead of one fork per member (musl tests membership the same way). */
static void byte_set(unsigned char table[256], const char *set, int with_nul) {
  memset(table, 0, 256);
  for (; *set != '\0'; set++)
    table[(unsigned char)*set] = 1;
  table[0] = (unsigned char)with_nul;
}

size_t strspn(const char *s, const char *accept) {
  unsigned char table[256];
  byte_set(table, accept, 0);
  size_t n = 0;
  while (table[(unsigned char)s[n]])
    n++;
  return n;
}

size_t strcspn(const char *s, const char *reject) {
  unsigned char table[256];
  byte_set(table, reject, 1);
  size_t n = 0;
  while (!table[(unsigned char)s[n]])
    n++;
  return n;
}

char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s != '\0' ? (char *)s : NULL;
}

char *strsep(char **sp, const char *delim) {
  char *s = *sp;
  if (s == NULL)
    return NULL;
  char *end = s + strcspn(s, delim);
  if (*end != '\0') {
    *end = '\0';
    *sp = end + 1;
  } else {
    *sp = NULL;
  }
  return s;
}

char *strtok_r(char *s, const char *delim, char **save) {
  if (s == NULL)
    s = *save;
  if (s == NULL)
    return NULL;
  s += strspn(s, delim);
  if (*s == '\0') {
    *save = s;
    return NULL;
  }
  char *end = s + strcspn(s, delim);
  if (*end != '\0') {
    *end = '\0';
    *save = end + 1;
  } else {
    *save = end;
  }
  return s;
}

char *strtok(char *s, const char *delim) {
  static char *save;
  return strtok_r(s, delim, &save);
}

char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *d = malloc(n + 1);
  if (d != NULL) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

void explicit_bzero(void *s, size_t n) { memset(s, 0, n); }
