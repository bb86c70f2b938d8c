/*
 * The scanf family: sscanf, fscanf, scanf and their v- forms (glibc's
 * headers name them __isoc99_*). Conversions: d i u o x X p c s [ n % and
 * f e g E G a (read into a buffer, then strtod), with assignment suppression,
 * field widths and the hh h l ll j z t L modifiers.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sear_rt.h"

struct source {
  const char *str; /* string source, or NULL */
  FILE *file;
  size_t consumed;
};

static int get(struct source *in) {
  int c;
  if (in->str != NULL) {
    c = (unsigned char)*in->str;
    if (c == 0)
      return EOF;
    in->str++;
  } else {
    c = fgetc(in->file);
    if (c == EOF)
      return EOF;
  }
  in->consumed++;
  return c;
}

static void unget(struct source *in, int c) {
  if (c == EOF)
    return;
  in->consumed--;
  if (in->str != NULL)
    in->str--;
  else
    ungetc(c, in->file);
}

static int is_space(int c) { return (c == ' ') | ((unsigned)(c - 9) < 5u); }

/* Skips white space; returns 0 at the end of input. */
static int skip_space(struct source *in) {
  int c;
  while ((c = get(in)) != EOF && is_space(c))
    ;
  unget(in, c);
  return c != EOF;
}

enum size { S_INT, S_CHAR, S_SHORT, S_LONG, S_LLONG, S_SIZE, S_PTRDIFF, S_INTMAX, S_LDOUBLE };

static void store_int(void *p, enum size size, unsigned long long v) {
  switch (size) {
  case S_CHAR:
    *(char *)p = (char)v;
    break;
  case S_SHORT:
    *(short *)p = (short)v;
    break;
  case S_LONG:
  case S_SIZE:
  case S_PTRDIFF:
    *(long *)p = (long)v;
    break;
  case S_LLONG:
  case S_INTMAX:
  case S_LDOUBLE:
    *(long long *)p = (long long)v;
    break;
  default:
    *(int *)p = (int)v;
  }
}

/* Reads an integer of at most width characters; returns 0 on a matching
 * failure. base 0 detects 0x and 0 prefixes. */
static int scan_int(struct source *in, int width, int base, unsigned long long *out) {
  char buf[80];
  int n = 0, c;
  if (width <= 0 || width > (int)sizeof buf - 1)
    width = (int)sizeof buf - 1;
  c = get(in);
  if ((c == '-' || c == '+') && n < width) {
    buf[n++] = (char)c;
    c = get(in);
  }
  /* The base is tested first: it is concrete, the byte may not be. */
  if ((base == 0 || base == 16) && c == '0' && n < width) {
    buf[n++] = '0';
    c = get(in);
    if ((c | 0x20) == 'x' && n < width) {
      buf[n++] = (char)c;
      base = 16;
      c = get(in);
    } else if (base == 0) {
      base = 8;
    }
  } else if (base == 0) {
    base = 10;
  }
  while (c != EOF && n < width && __sear_digit_value[c] < (unsigned)base) {
    buf[n++] = (char)c;
    c = get(in);
  }
  unget(in, c);
  buf[n] = '\0';
  char *end;
  unsigned long long v = strtoull(buf, &end, base);
  if (end == buf)
    return 0;
  *out = v;
  return 1;
}

static int scan_float(struct source *in, int width, double *out) {
  char buf[128];
  int n = 0, c;
  if (width <= 0 || width > (int)sizeof buf - 1)
    width = (int)sizeof buf - 1;
  while ((c = get(in)) != EOF && n < width &&
         (__sear_digit_value[c] < 16 || c == '.' || c == '-' || c == '+' ||
          (c | 0x20) == 'x' || (c | 0x20) == 'p' || (c | 0x20) == 'n' ||
          (c | 0x20) == 'i' || (c | 0x20) == 't' || (c | 0x20) == 'y'))
    buf[n++] = (char)c;
  unget(in, c);
  buf[n] = '\0';
  char *end;
  double v = strtod(buf, &end);
  if (end == buf)
    return 0;
  *out = v;
  return 1;
}

static int vscan(struct source *in, const char *fmt, va_list ap_in) {
  va_list ap;
  va_copy(ap, ap_in);
  int assigned = 0, conversions = 0;
  const unsigned char *f = (const unsigned char *)fmt;
  while (*f != '\0') {
    if (is_space(*f)) {
      while (is_space(*f))
        f++;
      skip_space(in);
      continue;
    }
    if (*f != '%' || f[1] == '%') {
      if (*f == '%') {
        f++;
        skip_space(in);
      }
      int c = get(in);
      if (c != *f) {
        unget(in, c);
        if (c == EOF && conversions == 0)
          assigned = EOF;
        break;
      }
      f++;
      continue;
    }
    f++;
    int suppress = 0, width = 0;
    if (*f == '*') {
      suppress = 1;
      f++;
    }
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (*f++ - '0');
    enum size size = S_INT;
    if (*f == 'h') {
      f++;
      size = S_SHORT;
      if (*f == 'h') {
        f++;
        size = S_CHAR;
      }
    } else if (*f == 'l') {
      f++;
      size = S_LONG;
      if (*f == 'l') {
        f++;
        size = S_LLONG;
      }
    } else if (*f == 'L' || *f == 'q') {
      f++;
      size = S_LDOUBLE;
    } else if (*f == 'j') {
      f++;
      size = S_INTMAX;
    } else if (*f == 'z') {
      f++;
      size = S_SIZE;
    } else if (*f == 't') {
      f++;
      size = S_PTRDIFF;
    }
    int conv = *f++;
    if (conv == 'n') {
      if (!suppress)
        store_int(va_arg(ap, void *), size, in->consumed);
      continue;
    }
    if (conv != 'c' && conv != '[' && !skip_space(in)) {
      if (conversions == 0)
        assigned = EOF;
      break;
    }
    int ok = 1;
    switch (conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
    case 'p': {
      int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : 16;
      unsigned long long v;
      ok = scan_int(in, width, base, &v);
      if (ok && !suppress) {
        if (conv == 'p')
          *va_arg(ap, void **) = (void *)(uintptr_t)v;
        else
          store_int(va_arg(ap, void *), size, v);
      }
      break;
    }
    case 'f':
    case 'e':
    case 'g':
    case 'E':
    case 'G':
    case 'a':
    case 'F': {
      double v;
      ok = scan_float(in, width, &v);
      if (ok && !suppress) {
        if (size == S_LONG)
          *va_arg(ap, double *) = v;
        else if (size == S_LDOUBLE)
          *va_arg(ap, long double *) = v;
        else
          *va_arg(ap, float *) = (float)v;
      }
      break;
    }
    case 'c': {
      if (width == 0)
        width = 1;
      char *dst = suppress ? NULL : va_arg(ap, char *);
      int i = 0;
      for (; i < width; i++) {
        int c = get(in);
        if (c == EOF)
          break;
        if (dst != NULL)
          dst[i] = (char)c;
      }
      ok = i == width;
      if (i == 0 && conversions == 0) {
        assigned = EOF;
        goto done;
      }
      break;
    }
    case 's':
    case '[': {
      unsigned char set[256];
      if (conv == 's') {
        for (int k = 0; k < 256; k++)
          set[k] = !is_space(k);
      } else {
        int negate = 0;
        if (*f == '^') {
          negate = 1;
          f++;
        }
        memset(set, 0, sizeof set);
        if (*f == ']')
          set[*f++] = 1;
        for (; *f != '\0' && *f != ']'; f++) {
          if (f[1] == '-' && f[2] != ']' && f[2] != '\0') {
            for (int k = f[0]; k <= f[2]; k++)
              set[k] = 1;
            f += 2;
          } else {
            set[*f] = 1;
          }
        }
        if (*f == ']')
          f++;
        if (negate)
          for (int k = 0; k < 256; k++)
            set[k] = !set[k];
      }
      char *dst = suppress ? NULL : va_arg(ap, char *);
      int i = 0, c;
      while ((width == 0 || i < width) && (c = get(in)) != EOF) {
        if (!set[c]) {
          unget(in, c);
          break;
        }
        if (dst != NULL)
          dst[i] = (char)c;
        i++;
      }
      ok = i > 0;
      if (ok && dst != NULL)
        dst[i] = '\0';
      break;
    }
    default:
      ok = 0;
    }
    if (!ok)
      break;
    conversions++;
    if (!suppress)
      assigned++;
  }
done:
  va_end(ap);
  return assigned;
}

static int scan_string(const char *s, const char *fmt, va_list ap) {
  struct source in = {s, NULL, 0};
  return vscan(&in, fmt, ap);
}

static int scan_file(FILE *f, const char *fmt, va_list ap) {
  struct source in = {NULL, f, 0};
  return vscan(&in, fmt, ap);
}

#define FORWARD(call)                                                          \
  va_list ap;                                                                  \
  va_start(ap, fmt);                                                           \
  int r = call;                                                                \
  va_end(ap);                                                                  \
  return r;

/* glibc's headers redirect sscanf and friends to the __isoc99_ names; the
 * plain names are defined under asm labels for code compiled otherwise. */
int plain_sscanf(const char *s, const char *fmt, ...) __asm__("sscanf");
int plain_fscanf(FILE *f, const char *fmt, ...) __asm__("fscanf");
int plain_scanf(const char *fmt, ...) __asm__("scanf");
int plain_vsscanf(const char *s, const char *fmt, va_list ap) __asm__("vsscanf");
int plain_vfscanf(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");
int plain_vscanf(const char *fmt, va_list ap) __asm__("vscanf");
int plain_sscanf(const char *s, const char *fmt, ...) { FORWARD(scan_string(s, fmt, ap)) }
int plain_fscanf(FILE *f, const char *fmt, ...) { FORWARD(scan_file(f, fmt, ap)) }
int plain_scanf(const char *fmt, ...) { FORWARD(scan_file(stdin, fmt, ap)) }
int plain_vsscanf(const char *s, const char *fmt, va_list ap) { return scan_string(s, fmt, ap); }
int plain_vfscanf(FILE *f, const char *fmt, va_list ap) { return scan_file(f, fmt, ap); }
int plain_vscanf(const char *fmt, va_list ap) { return scan_file(stdin, fmt, ap); }
int __isoc99_sscanf(const char *s, const char *fmt, ...) { FORWARD(scan_string(s, fmt, ap)) }
int __isoc99_fscanf(FILE *f, const char *fmt, ...) { FORWARD(scan_file(f, fmt, ap)) }
int __isoc99_scanf(const char *fmt, ...) { FORWARD(scan_file(stdin, fmt, ap)) }
int __isoc99_vsscanf(const char *s, const char *fmt, va_list ap) { return scan_string(s, fmt, ap); }
int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap) { return scan_file(f, fmt, ap); }
int __isoc99_vscanf(const char *fmt, va_list ap) { return scan_file(stdin, fmt, ap); }
