/*
 * Floating-point conversions: strtod, strtof, strtold, atof.
 *
 * Decimal input is exact (correctly rounded) when it has at most 15
 * significant digits and a decimal exponent within ±22, the common case;
 * otherwise the result is computed by repeated scaling and may differ from
 * glibc's in the last bit. Hexadecimal floats, "inf", "infinity" and "nan"
 * are accepted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sear_rt.h"

static int lower(int c) { return c + ((unsigned)(c - 'A') < 26u) * ('a' - 'A'); }

static int match_word(const char *s, const char *word) {
  int i = 0;
  for (; word[i] != '\0'; i++)
    if (lower((unsigned char)s[i]) != word[i])
      return 0;
  return i;
}

static const double exact_powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                      1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                      1e18, 1e19, 1e20, 1e21, 1e22};

static double scale10(double v, int exp) {
  while (exp > 22) {
    v *= 1e22;
    exp -= 22;
  }
  while (exp < -22) {
    v /= 1e22;
    exp += 22;
  }
  return exp >= 0 ? v * exact_powers[exp] : v / exact_powers[-exp];
}

static double parse_hex(const char *s, const char **end) {
  double v = 0;
  int exp = 0, any = 0;
  for (;; s++) {
    int c = lower((unsigned char)*s), d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else
      break;
    v = v * 16 + d;
    any = 1;
  }
  if (*s == '.') {
    s++;
    for (;; s++) {
      int c = lower((unsigned char)*s), d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else
        break;
      v = v * 16 + d;
      exp -= 4;
      any = 1;
    }
  }
  if (!any)
    return -1;
  if (lower((unsigned char)*s) == 'p') {
    const char *p = s + 1;
    int neg = 0, e = 0, digits = 0;
    if (*p == '-' || *p == '+')
      neg = *p++ == '-';
    for (; *p >= '0' && *p <= '9'; p++, digits++)
      if (e < 100000)
        e = e * 10 + (*p - '0');
    if (digits > 0) {
      exp += neg ? -e : e;
      s = p;
    }
  }
  *end = s;
  return ldexp(v, exp);
}

double strtod(const char *nptr, char **endptr) {
  const char *s = nptr;
  while (*s == ' ' || (unsigned)(*s - 9) < 5u)
    s++;
  int neg = 0;
  if (*s == '-' || *s == '+')
    neg = *s++ == '-';
  double result;
  int n;
  if ((n = match_word(s, "infinity")) || (n = match_word(s, "inf"))) {
    result = HUGE_VAL;
    s += n;
  } else if ((n = match_word(s, "nan"))) {
    result = NAN;
    s += n;
    if (*s == '(') {
      const char *p = s + 1;
      while ((*p >= '0' && *p <= '9') || (lower((unsigned char)*p) >= 'a' && lower((unsigned char)*p) <= 'z') || *p == '_')
        p++;
      if (*p == ')')
        s = p + 1;
    }
  } else if (s[0] == '0' && lower((unsigned char)s[1]) == 'x') {
    const char *end;
    double v = parse_hex(s + 2, &end);
    if (v < 0) {
      result = 0;
      s += 1; /* just the "0" */
    } else {
      result = v;
      s = end;
    }
  } else {
    unsigned long long mant = 0;
    int digits = 0, exp10 = 0, any = 0, dropped = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
      any = 1;
      if (digits < 19) {
        if (mant != 0 || *s != '0') {
          mant = mant * 10 + (unsigned)(*s - '0');
          digits++;
        }
      } else {
        exp10++;
        dropped |= *s != '0';
      }
    }
    if (*s == '.') {
      const char *p = s + 1;
      for (; *p >= '0' && *p <= '9'; p++) {
        any = 1;
        if (digits < 19) {
          if (mant != 0 || *p != '0') {
            mant = mant * 10 + (unsigned)(*p - '0');
            digits++;
          }
          exp10--;
        } else {
          dropped |= *p != '0';
        }
      }
      if (any)
        s = p;
    }
    if (!any) {
      if (endptr != NULL)
        *endptr = (char *)nptr;
      return 0;
    }
    if (lower((unsigned char)*s) == 'e') {
      const char *p = s + 1;
      int eneg = 0, e = 0, edigits = 0;
      if (*p == '-' || *p == '+')
        eneg = *p++ == '-';
      for (; *p >= '0' && *p <= '9'; p++, edigits++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      if (edigits > 0) {
        exp10 += eneg ? -e : e;
        s = p;
      }
    }
    (void)dropped;
    if (mant == 0)
      result = 0;
    else if (exp10 < -400)
      result = 0;
    else if (exp10 > 400)
      result = HUGE_VAL;
    else
      result = scale10((double)mant, exp10);
    if (result == HUGE_VAL || (result == 0 && mant != 0))
      errno = ERANGE;
  }
  if (endptr != NULL)
    *endptr = (char *)s;
  return neg ? -result : result;
}

float strtof(const char *s, char **end) { return (float)strtod(s, end); }
long double strtold(const char *s, char **end) { return strtod(s, end); }
double atof(const char *s) { return strtod(s, NULL); }
double __isoc23_strtod(const char *s, char **end) { return strtod(s, end); }
