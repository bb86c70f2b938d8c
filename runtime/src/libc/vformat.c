/*
 * The printf formatter shared by the whole printf family.
 *
 * Conversions: d i u o x X c s p n % m f F e E g G a A, with the flags
 * - + space # 0 ', field width and precision (numbers or *), and the length
 * modifiers hh h l ll q j z Z t L. Characters (%c) and string bytes (%s)
 * are copied as they are, symbolic or not, so a symbolic string prints
 * exactly what the test's input holds. A symbolic number, width or precision
 * is fixed to one feasible value (the path condition records it) with a
 * warning, since formatting it needs a concrete value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sear_rt.h"

uint64_t __sear_concretize(uint64_t v, const char *what) {
  if (!klee_is_symbolic(v))
    return v;
  klee_warning_once(what);
  uint64_t c = klee_get_value_i64(v);
  klee_assume(v == c);
  return c;
}

/* ---- Sinks ----------------------------------------------------------------- */

void __sear_sink_flush(struct sear_sink *s) {
  size_t done = 0;
  while (done < s->npending) {
    ssize_t n = __sear_stdio_write(s->fd, s->pending + done, s->npending - done);
    if (n <= 0) {
      s->failed = 1;
      break;
    }
    done += (size_t)n;
  }
  s->npending = 0;
}

void __sear_sink_putc(struct sear_sink *s, char c) {
  if (s->fd >= 0) {
    s->pending[s->npending++] = c;
    if (s->npending == sizeof s->pending)
      __sear_sink_flush(s);
  } else if (s->buf != NULL && s->len + 1 < s->cap) {
    s->buf[s->len] = c;
  }
  s->len++;
}

void __sear_sink_pad(struct sear_sink *s, char c, int n) {
  for (; n > 0; n--)
    __sear_sink_putc(s, c);
}

static void put_bytes(struct sear_sink *s, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    __sear_sink_putc(s, p[i]);
}

/* ---- Integers -------------------------------------------------------------- */

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L };

static void put_integer(struct sear_sink *s, unsigned long long mag, int negative,
                        int conv, int width, int prec, unsigned flags) {
  char digits[32];
  int n = 0;
  unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
  const char *alphabet = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  for (unsigned long long v = mag; v != 0; v /= base)
    digits[n++] = alphabet[v % base];
  int ndigits = n;
  if (prec < 0)
    prec = 1;
  else
    flags &= ~SEAR_FMT_ZERO;
  int zeros = prec > ndigits ? prec - ndigits : 0;
  if (conv == 'o' && (flags & SEAR_FMT_ALT) && zeros == 0 && (ndigits == 0 || digits[n - 1] != '0'))
    zeros = 1;
  const char *prefix = "";
  if (conv == 'd' || conv == 'i') {
    if (negative)
      prefix = "-";
    else if (flags & SEAR_FMT_PLUS)
      prefix = "+";
    else if (flags & SEAR_FMT_SPACE)
      prefix = " ";
  } else if (((conv == 'x' || conv == 'X') && (flags & SEAR_FMT_ALT) && mag != 0) || conv == 'p') {
    prefix = conv == 'X' ? "0X" : "0x";
  }
  int plen = (int)strlen(prefix);
  int body = plen + zeros + ndigits;
  int pad = width > body ? width - body : 0;
  if (!(flags & (SEAR_FMT_LEFT | SEAR_FMT_ZERO)))
    __sear_sink_pad(s, ' ', pad);
  put_bytes(s, prefix, (size_t)plen);
  if ((flags & SEAR_FMT_ZERO) && !(flags & SEAR_FMT_LEFT))
    __sear_sink_pad(s, '0', pad);
  __sear_sink_pad(s, '0', zeros);
  while (n > 0)
    __sear_sink_putc(s, digits[--n]);
  if (flags & SEAR_FMT_LEFT)
    __sear_sink_pad(s, ' ', pad);
}

static unsigned long long next_unsigned(va_list *ap, enum length len) {
  switch (len) {
  case LEN_HH:
    return (unsigned char)va_arg(*ap, unsigned);
  case LEN_H:
    return (unsigned short)va_arg(*ap, unsigned);
  case LEN_L:
  case LEN_Z:
  case LEN_T:
    return va_arg(*ap, unsigned long);
  case LEN_LL:
  case LEN_J:
  case LEN_BIG_L:
    return va_arg(*ap, unsigned long long);
  default:
    return va_arg(*ap, unsigned);
  }
}

static long long next_signed(va_list *ap, enum length len) {
  switch (len) {
  case LEN_HH:
    return (signed char)va_arg(*ap, int);
  case LEN_H:
    return (short)va_arg(*ap, int);
  case LEN_L:
  case LEN_Z:
  case LEN_T:
    return va_arg(*ap, long);
  case LEN_LL:
  case LEN_J:
  case LEN_BIG_L:
    return va_arg(*ap, long long);
  default:
    return va_arg(*ap, int);
  }
}

/* ---- Strings ----------------------------------------------------------------- */

static void put_string(struct sear_sink *s, const char *str, int width, int prec,
                       unsigned flags) {
  if (str == NULL)
    str = (prec < 0 || prec >= 6) ? "(null)" : "";
  int n = 0;
  while ((prec < 0 || n < prec) && str[n] != '\0')
    n++;
  int pad = width > n ? width - n : 0;
  if (!(flags & SEAR_FMT_LEFT))
    __sear_sink_pad(s, ' ', pad);
  put_bytes(s, str, (size_t)n);
  if (flags & SEAR_FMT_LEFT)
    __sear_sink_pad(s, ' ', pad);
}

/* ---- The format loop ---------------------------------------------------------- */

static int read_number(const char **fp) {
  int n = 0;
  while (**fp >= '0' && **fp <= '9') {
    if (n < 100000000)
      n = n * 10 + (**fp - '0');
    (*fp)++;
  }
  return n;
}

int __sear_vformat(struct sear_sink *s, const char *fmt, va_list ap_in) {
  va_list ap;
  va_copy(ap, ap_in);
  const char *f = fmt;
  while (*f != '\0') {
    if (*f != '%') {
      __sear_sink_putc(s, *f++);
      continue;
    }
    const char *spec = f++;
    unsigned flags = 0;
    for (;; f++) {
      if (*f == '-')
        flags |= SEAR_FMT_LEFT;
      else if (*f == '+')
        flags |= SEAR_FMT_PLUS;
      else if (*f == ' ')
        flags |= SEAR_FMT_SPACE;
      else if (*f == '#')
        flags |= SEAR_FMT_ALT;
      else if (*f == '0')
        flags |= SEAR_FMT_ZERO;
      else if (*f != '\'' && *f != 'I')
        break;
    }
    int width = 0;
    if (*f == '*') {
      f++;
      width = (int)__sear_concretize((uint64_t)(int64_t)va_arg(ap, int), "printf: symbolic field width concretized");
      if (width < 0) {
        flags |= SEAR_FMT_LEFT;
        width = -width;
      }
    } else {
      width = read_number(&f);
    }
    int prec = -1;
    if (*f == '.') {
      f++;
      if (*f == '*') {
        f++;
        prec = (int)__sear_concretize((uint64_t)(int64_t)va_arg(ap, int), "printf: symbolic precision concretized");
        if (prec < 0)
          prec = -1;
      } else {
        prec = read_number(&f);
      }
    }
    enum length len = LEN_NONE;
    if (*f == 'h') {
      f++;
      len = LEN_H;
      if (*f == 'h') {
        f++;
        len = LEN_HH;
      }
    } else if (*f == 'l') {
      f++;
      len = LEN_L;
      if (*f == 'l') {
        f++;
        len = LEN_LL;
      }
    } else if (*f == 'q' || *f == 'L') {
      len = *f == 'L' ? LEN_BIG_L : LEN_LL;
      f++;
    } else if (*f == 'j') {
      f++;
      len = LEN_J;
    } else if (*f == 'z' || *f == 'Z') {
      f++;
      len = LEN_Z;
    } else if (*f == 't') {
      f++;
      len = LEN_T;
    }
    int conv = *f;
    if (conv == '\0')
      break;
    f++;
    switch (conv) {
    case 'd':
    case 'i': {
      long long v = (long long)__sear_concretize((uint64_t)next_signed(&ap, len),
                                                 "printf: symbolic value concretized");
      unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
      put_integer(s, mag, v < 0, conv, width, prec, flags);
      break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      unsigned long long v = __sear_concretize(next_unsigned(&ap, len),
                                               "printf: symbolic value concretized");
      put_integer(s, v, 0, conv, width, prec, flags);
      break;
    }
    case 'p': {
      uint64_t v = __sear_concretize((uint64_t)(uintptr_t)va_arg(ap, void *),
                                     "printf: symbolic pointer concretized");
      if (v == 0)
        put_string(s, "(nil)", width, -1, flags);
      else
        put_integer(s, v, 0, 'p', width, prec, flags);
      break;
    }
    case 'c': {
      char c = (char)va_arg(ap, int);
      int pad = width > 1 ? width - 1 : 0;
      if (!(flags & SEAR_FMT_LEFT))
        __sear_sink_pad(s, ' ', pad);
      __sear_sink_putc(s, c);
      if (flags & SEAR_FMT_LEFT)
        __sear_sink_pad(s, ' ', pad);
      break;
    }
    case 's':
      put_string(s, va_arg(ap, const char *), width, prec, flags);
      break;
    case 'm':
      put_string(s, strerror(errno), width, prec, flags);
      break;
    case 'n': {
      void *p = va_arg(ap, void *);
      if (len == LEN_HH)
        *(signed char *)p = (signed char)s->len;
      else if (len == LEN_H)
        *(short *)p = (short)s->len;
      else if (len == LEN_L || len == LEN_Z || len == LEN_T)
        *(long *)p = (long)s->len;
      else if (len == LEN_LL || len == LEN_J)
        *(long long *)p = (long long)s->len;
      else
        *(int *)p = (int)s->len;
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double v = len == LEN_BIG_L ? (double)va_arg(ap, long double) : va_arg(ap, double);
      uint64_t bits;
      memcpy(&bits, &v, sizeof bits);
      bits = __sear_concretize(bits, "printf: symbolic floating-point value concretized");
      memcpy(&v, &bits, sizeof v);
      __sear_format_double(s, v, conv, prec, width, flags);
      break;
    }
    case '%':
      __sear_sink_putc(s, '%');
      break;
    default:
      /* Unknown conversion: printed as written, like glibc. */
      put_bytes(s, spec, (size_t)(f - spec));
      break;
    }
  }
  va_end(ap);
  if (s->fd >= 0)
    __sear_sink_flush(s);
  if (s->failed)
    return -1;
  return s->len > 0x7fffffff ? -1 : (int)s->len;
}
