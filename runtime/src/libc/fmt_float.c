/*
 * Exact formatting of doubles for %f, %e, %g and %a, matching glibc.
 *
 * A finite double is m * 2^e exactly. Its decimal expansion is computed with a
 * small big-integer: m << e when e >= 0, else m * 5^-e (the value times
 * 10^-e). Rounding to the requested digits is round-half-to-even on the exact
 * digits, as glibc does in the default rounding mode. Precision is capped at
 * 1000 digits.
 */
#include <stdint.h>
#include <string.h>

#include "sear_rt.h"

#define LIMBS 96      /* 3072 bits: enough for 2^53 * 5^1074 and 2^1024 */
#define MAX_DIGITS 800
#define MAX_PREC 1000

struct big {
  uint32_t limb[LIMBS];
  int n; /* limbs in use */
};

static void big_mul_small(struct big *b, uint32_t k) {
  uint64_t carry = 0;
  for (int i = 0; i < b->n; i++) {
    uint64_t t = (uint64_t)b->limb[i] * k + carry;
    b->limb[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry != 0 && b->n < LIMBS)
    b->limb[b->n++] = (uint32_t)carry;
}

static void big_shift_left(struct big *b, int bits) {
  int words = bits / 32, rest = bits % 32;
  if (words > 0) {
    for (int i = b->n - 1; i >= 0; i--)
      if (i + words < LIMBS)
        b->limb[i + words] = b->limb[i];
    for (int i = 0; i < words; i++)
      b->limb[i] = 0;
    b->n = b->n + words > LIMBS ? LIMBS : b->n + words;
  }
  if (rest > 0) {
    uint32_t carry = 0;
    for (int i = 0; i < b->n; i++) {
      uint32_t next = b->limb[i] >> (32 - rest);
      b->limb[i] = (b->limb[i] << rest) | carry;
      carry = next;
    }
    if (carry != 0 && b->n < LIMBS)
      b->limb[b->n++] = carry;
  }
}

/* Divides by 10^9 in place; returns the remainder. */
static uint32_t big_div_1e9(struct big *b) {
  uint64_t rem = 0;
  for (int i = b->n - 1; i >= 0; i--) {
    uint64_t cur = (rem << 32) | b->limb[i];
    b->limb[i] = (uint32_t)(cur / 1000000000u);
    rem = cur % 1000000000u;
  }
  while (b->n > 0 && b->limb[b->n - 1] == 0)
    b->n--;
  return (uint32_t)rem;
}

/* The decimal digits of a positive finite v: v = 0.D * 10^E. Returns the
 * number of digits (without trailing zeros), stored in d[]. */
static int exact_digits(double v, char *d, int *exp10) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int be = (int)((bits >> 52) & 0x7ff);
  uint64_t m = bits & ((1ull << 52) - 1);
  int e2;
  if (be == 0) {
    e2 = -1074;
  } else {
    m |= 1ull << 52;
    e2 = be - 1075;
  }
  while ((m & 1) == 0) {
    m >>= 1;
    e2++;
  }
  struct big b;
  b.limb[0] = (uint32_t)m;
  b.limb[1] = (uint32_t)(m >> 32);
  b.n = b.limb[1] != 0 ? 2 : 1;
  int scale = 0; /* value = N * 10^-scale */
  if (e2 >= 0) {
    big_shift_left(&b, e2);
  } else {
    scale = -e2;
    int k = scale;
    while (k >= 13) {
      big_mul_small(&b, 1220703125u); /* 5^13 */
      k -= 13;
    }
    uint32_t p = 1;
    while (k-- > 0)
      p *= 5;
    big_mul_small(&b, p);
  }
  /* Convert N to decimal, least significant chunk first. */
  char rev[MAX_DIGITS + 16];
  int n = 0;
  while (b.n > 0) {
    uint32_t chunk = big_div_1e9(&b);
    for (int i = 0; i < 9; i++) {
      rev[n++] = (char)('0' + chunk % 10);
      chunk /= 10;
    }
  }
  while (n > 0 && rev[n - 1] == '0')
    n--;
  for (int i = 0; i < n; i++)
    d[i] = rev[n - 1 - i];
  *exp10 = n - scale;
  while (n > 0 && d[n - 1] == '0')
    n--;
  return n;
}

/* Rounds the digits d[0..n) of 0.D * 10^E to `keep` digits (half to even);
 * returns the new count (the digits may be padded with zeros to keep). */
static int round_digits(char *d, int n, int *exp10, int keep) {
  if (keep >= n) {
    for (int i = n; i < keep; i++)
      d[i] = '0';
    return keep;
  }
  if (keep < 0) {
    d[0] = '0';
    return 0;
  }
  int up;
  char first = d[keep];
  if (first > '5') {
    up = 1;
  } else if (first < '5') {
    up = 0;
  } else {
    int rest = 0;
    for (int i = keep + 1; i < n; i++)
      rest |= d[i] != '0';
    up = rest || (keep > 0 && ((d[keep - 1] - '0') & 1));
  }
  if (up) {
    int i = keep - 1;
    while (i >= 0 && d[i] == '9') {
      d[i] = '0';
      i--;
    }
    if (i >= 0) {
      d[i]++;
    } else {
      /* All nines (or no digit kept): the value becomes 10^E. */
      d[0] = '1';
      for (int j = 1; j < keep; j++)
        d[j] = '0';
      (*exp10)++;
      return keep > 0 ? keep : 1;
    }
  }
  return keep;
}

static int put_exponent(char *out, int x, int upper) {
  int k = 0;
  out[k++] = upper ? 'E' : 'e';
  out[k++] = x < 0 ? '-' : '+';
  unsigned ux = x < 0 ? (unsigned)-x : (unsigned)x;
  char tmp[8];
  int t = 0;
  do {
    tmp[t++] = (char)('0' + ux % 10);
    ux /= 10;
  } while (ux != 0);
  if (t < 2)
    tmp[t++] = '0';
  while (t > 0)
    out[k++] = tmp[--t];
  return k;
}

/* Fixed notation of 0.D * 10^E with prec fraction digits. */
static int fixed(char *out, char *d, int n, int e, int prec, int alt) {
  n = round_digits(d, n, &e, e + prec);
  int k = 0;
  if (e <= 0) {
    out[k++] = '0';
  } else {
    for (int i = 0; i < e; i++)
      out[k++] = i < n ? d[i] : '0';
  }
  if (prec > 0 || alt)
    out[k++] = '.';
  for (int i = 0; i < prec; i++) {
    int pos = e + i; /* digit index of 10^-(i+1) */
    out[k++] = (pos >= 0 && pos < n) ? d[pos] : '0';
  }
  return k;
}

static int scientific(char *out, char *d, int n, int e, int prec, int alt, int upper, int zero) {
  if (zero) {
    n = 0;
    e = 1;
  } else {
    n = round_digits(d, n, &e, prec + 1);
  }
  int k = 0;
  out[k++] = n > 0 ? d[0] : '0';
  if (prec > 0 || alt)
    out[k++] = '.';
  for (int i = 1; i <= prec; i++)
    out[k++] = i < n ? d[i] : '0';
  return k + put_exponent(out + k, zero ? 0 : e - 1, upper);
}

static int strip_zeros(char *out, int k) {
  int dot = -1, end = k;
  for (int i = 0; i < k; i++)
    if (out[i] == '.')
      dot = i;
    else if (out[i] == 'e' || out[i] == 'E') {
      end = i;
      break;
    }
  if (dot < 0)
    return k;
  int last = end;
  while (last > dot + 1 && out[last - 1] == '0')
    last--;
  if (last == dot + 1)
    last = dot;
  memmove(out + last, out + end, (size_t)(k - end));
  return last + (k - end);
}

static int hex_float(char *out, double v, int prec, int upper, int alt) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int be = (int)((bits >> 52) & 0x7ff);
  uint64_t m = bits & ((1ull << 52) - 1);
  int lead = be == 0 ? 0 : 1;
  int exp = be == 0 ? (m == 0 ? 0 : -1022) : be - 1023;
  const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int digits = 13;
  if (prec >= 0 && prec < 13) {
    int drop = (13 - prec) * 4;
    uint64_t rem = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    m >>= drop;
    /* The last kept digit is the leading one when no fraction digit is kept. */
    uint64_t last = prec == 0 ? (uint64_t)lead : m;
    if (rem > half || (rem == half && (last & 1)))
      m++;
    if (m >> (prec * 4)) {
      m &= (1ull << (prec * 4)) - 1;
      lead++;
    }
    digits = prec;
  } else {
    while (digits > 0 && (m & 0xf) == 0 && prec < 0) {
      m >>= 4;
      digits--;
    }
  }
  int k = 0;
  out[k++] = '0';
  out[k++] = upper ? 'X' : 'x';
  out[k++] = (char)('0' + lead);
  if (digits > 0 || alt)
    out[k++] = '.';
  for (int i = digits - 1; i >= 0; i--)
    out[k++] = hex[(m >> (4 * i)) & 0xf];
  for (int i = 13; i < prec; i++)
    out[k++] = '0';
  out[k++] = upper ? 'P' : 'p';
  out[k++] = exp < 0 ? '-' : '+';
  unsigned ux = exp < 0 ? (unsigned)-exp : (unsigned)exp;
  char tmp[8];
  int t = 0;
  do {
    tmp[t++] = (char)('0' + ux % 10);
    ux /= 10;
  } while (ux != 0);
  while (t > 0)
    out[k++] = tmp[--t];
  return k;
}

void __sear_format_double(struct sear_sink *s, double v, int conv, int prec,
                          int width, unsigned flags) {
  static char out[MAX_DIGITS + MAX_PREC + 32];
  static char d[MAX_DIGITS + MAX_PREC + 32];
  int upper = conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A';
  int alt = (flags & SEAR_FMT_ALT) != 0;
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int negative = (int)(bits >> 63);
  if (negative)
    v = -v;
  if (prec > MAX_PREC)
    prec = MAX_PREC;
  int k = 0;
  int finite = ((bits >> 52) & 0x7ff) != 0x7ff;
  if (!finite) {
    const char *word = (bits & ((1ull << 52) - 1)) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    memcpy(out, word, 3);
    k = 3;
    flags &= ~SEAR_FMT_ZERO;
  } else if (conv == 'a' || conv == 'A') {
    k = hex_float(out, v, prec, upper, alt);
  } else {
    int zero = v == 0;
    int e = 0, n = zero ? 0 : exact_digits(v, d, &e);
    if (zero)
      e = 1;
    if (prec < 0)
      prec = 6;
    if (conv == 'f' || conv == 'F') {
      k = fixed(out, d, n, e, prec, alt);
    } else if (conv == 'e' || conv == 'E') {
      k = scientific(out, d, n, e, prec, alt, upper, zero);
    } else {
      int p = prec == 0 ? 1 : prec;
      int x = 0;
      if (!zero) {
        char tmp[MAX_DIGITS + MAX_PREC + 32];
        int te = e;
        memcpy(tmp, d, (size_t)n);
        round_digits(tmp, n, &te, p);
        x = te - 1;
      }
      if (x < p && x >= -4)
        k = fixed(out, d, n, e, p - 1 - x, alt);
      else
        k = scientific(out, d, n, e, p - 1, alt, upper, zero);
      if (!alt)
        k = strip_zeros(out, k);
    }
  }
  char sign = negative ? '-' : (flags & SEAR_FMT_PLUS) ? '+' : (flags & SEAR_FMT_SPACE) ? ' ' : 0;
  int body = k + (sign != 0);
  int pad = width > body ? width - body : 0;
  if (!(flags & (SEAR_FMT_LEFT | SEAR_FMT_ZERO)))
    __sear_sink_pad(s, ' ', pad);
  if (sign)
    __sear_sink_putc(s, sign);
  int start = 0;
  if ((conv == 'a' || conv == 'A') && finite) {
    __sear_sink_putc(s, out[0]);
    __sear_sink_putc(s, out[1]);
    start = 2;
  }
  if ((flags & SEAR_FMT_ZERO) && !(flags & SEAR_FMT_LEFT))
    __sear_sink_pad(s, '0', pad);
  for (int i = start; i < k; i++)
    __sear_sink_putc(s, out[i]);
  if (flags & SEAR_FMT_LEFT)
    __sear_sink_pad(s, ' ', pad);
}
