/*
 * Integer conversions: the strto* and ato* families, written so that a
 * symbolic digit costs one fork (digit or not: one table read and one
 * comparison with the base). Overflow checks are only made once a concrete
 * bound on the accumulated value shows that overflow has become possible.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "sear_rt.h"

/* The value of a digit in any base up to 36; 64 for other bytes. */
#define DV(c)                                                                  \
  ((c) >= '0' && (c) <= '9'   ? (c) - '0'                                      \
   : (c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 10                                 \
   : (c) >= 'A' && (c) <= 'Z' ? (c) - 'A' + 10                                 \
                              : 64)
#define D4(i) DV(i), DV(i + 1), DV(i + 2), DV(i + 3)
#define D16(i) D4(i), D4(i + 4), D4(i + 8), D4(i + 12)
#define D64(i) D16(i), D16(i + 16), D16(i + 32), D16(i + 48)
const unsigned char __sear_digit_value[256] = {D64(0), D64(64), D64(128), D64(192)};
#define digit_value __sear_digit_value

/* Branch-free whitespace test (space, \t \n \v \f \r). */
static int is_space(unsigned char c) {
  return (c == ' ') | ((unsigned)(c - 9) < 5u);
}

/*
 * Parses an integer as strtoull does. Returns the magnitude; *negative tells
 * the sign; *overflow is set when the magnitude exceeds `limit`.
 */
static unsigned long long parse(const char *nptr, char **endptr, int base,
                                unsigned long long limit, int *negative,
                                int *overflow) {
  const unsigned char *s = (const unsigned char *)nptr;
  *negative = 0;
  *overflow = 0;
  if (base < 0 || base == 1 || base > 36) {
    errno = EINVAL;
    if (endptr != NULL)
      *endptr = (char *)nptr;
    return 0;
  }
  while (is_space(*s))
    s++;
  if (*s == '-') {
    *negative = 1;
    s++;
  } else if (*s == '+') {
    s++;
  }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 0x20) == 'x' &&
      digit_value[s[2]] < 16) {
    s += 2;
    base = 16;
  } else if (base == 0) {
    base = s[0] == '0' ? 8 : 10;
  }
  unsigned long long acc = 0;
  /* A concrete upper bound of acc; checks start when it can pass `limit`. */
  unsigned long long bound = 0;
  int bound_valid = 1;
  const unsigned char *start = s;
  for (;; s++) {
    unsigned d = digit_value[*s];
    if (d >= (unsigned)base)
      break;
    if (*overflow)
      continue;
    if (bound_valid && bound <= (limit - (unsigned)(base - 1)) / (unsigned)base) {
      bound = bound * (unsigned)base + (unsigned)(base - 1);
      acc = acc * (unsigned)base + d;
      continue;
    }
    bound_valid = 0;
    if (acc > (limit - d) / (unsigned)base)
      *overflow = 1;
    else
      acc = acc * (unsigned)base + d;
  }
  if (s == start) {
    /* No digits: nothing is consumed ("0x" without hex digits is "0"). */
    if (endptr != NULL)
      *endptr = (char *)nptr;
    *negative = 0;
    return 0;
  }
  if (endptr != NULL)
    *endptr = (char *)s;
  return acc;
}

static long long signed_result(unsigned long long mag, int neg, int overflow,
                               long long min, long long max) {
  if (overflow) {
    errno = ERANGE;
    return neg ? min : max;
  }
  if (neg)
    return (long long)(0 - mag);
  return (long long)mag;
}

long strtol(const char *s, char **end, int base) {
  int neg, of;
  unsigned long long m = parse(s, end, base, (unsigned long long)LONG_MAX + 1, &neg, &of);
  if (!of && !neg && m > (unsigned long long)LONG_MAX)
    of = 1;
  return (long)signed_result(m, neg, of, LONG_MIN, LONG_MAX);
}

long long strtoll(const char *s, char **end, int base) {
  int neg, of;
  unsigned long long m = parse(s, end, base, (unsigned long long)LLONG_MAX + 1, &neg, &of);
  if (!of && !neg && m > (unsigned long long)LLONG_MAX)
    of = 1;
  return signed_result(m, neg, of, LLONG_MIN, LLONG_MAX);
}

unsigned long strtoul(const char *s, char **end, int base) {
  int neg, of;
  unsigned long long m = parse(s, end, base, ULONG_MAX, &neg, &of);
  if (of) {
    errno = ERANGE;
    return ULONG_MAX;
  }
  return neg ? (unsigned long)(0 - m) : (unsigned long)m;
}

unsigned long long strtoull(const char *s, char **end, int base) {
  return strtoul(s, end, base);
}

intmax_t strtoimax(const char *s, char **end, int base) { return strtoll(s, end, base); }
uintmax_t strtoumax(const char *s, char **end, int base) { return strtoull(s, end, base); }

/* glibc 2.38+ headers redirect to these in C2X mode. */
long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }

/* Branch-free: the sign mask flips and corrects negative values. */
int abs(int x) {
  int m = x >> 31;
  return (int)(((unsigned)x ^ (unsigned)m) - (unsigned)m);
}
long labs(long x) {
  long m = x >> (sizeof(long) * 8 - 1);
  return (long)(((unsigned long)x ^ (unsigned long)m) - (unsigned long)m);
}
long long llabs(long long x) { return labs(x); }
intmax_t imaxabs(intmax_t x) { return labs(x); }

div_t div(int a, int b) {
  div_t r = {a / b, a % b};
  return r;
}

ldiv_t ldiv(long a, long b) {
  ldiv_t r = {a / b, a % b};
  return r;
}

lldiv_t lldiv(long long a, long long b) {
  lldiv_t r = {a / b, a % b};
  return r;
}
