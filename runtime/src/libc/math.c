/*
 * The few math.h functions the runtime itself needs (and programs commonly
 * call); each is an LLVM intrinsic the engine evaluates, or exact bit work.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

double fabs(double x) { return __builtin_fabs(x); }
double floor(double x) { return __builtin_floor(x); }
double ceil(double x) { return __builtin_ceil(x); }
double trunc(double x) { return __builtin_trunc(x); }
double round(double x) { return __builtin_round(x); }
double sqrt(double x) { return __builtin_sqrt(x); }
double copysign(double x, double y) { return __builtin_copysign(x, y); }
double fmin(double x, double y) { return __builtin_fmin(x, y); }
double fmax(double x, double y) { return __builtin_fmax(x, y); }
float fabsf(float x) { return __builtin_fabsf(x); }

double fmod(double x, double y) {
  if (y == 0 || x != x || y != y)
    return NAN;
  double q = __builtin_trunc(x / y);
  return x - q * y;
}

double scalbn(double x, int n) {
  while (n > 1000) {
    x *= 0x1p1000;
    n -= 1000;
  }
  while (n < -1000) {
    x *= 0x1p-1000;
    n += 1000;
  }
  /* 2^n as a double, built from its bits (n in -1000..1000). */
  uint64_t bits;
  if (n >= -1022) {
    bits = (uint64_t)(n + 1023) << 52;
  } else {
    bits = (uint64_t)1 << (52 + (n + 1022)); /* subnormal power */
  }
  double p;
  memcpy(&p, &bits, sizeof p);
  return x * p;
}

double ldexp(double x, int n) { return scalbn(x, n); }

double frexp(double x, int *exp) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int e = (int)((bits >> 52) & 0x7ff);
  if (e == 0) {
    if (x == 0) {
      *exp = 0;
      return x;
    }
    x *= 0x1p64;
    memcpy(&bits, &x, sizeof bits);
    e = (int)((bits >> 52) & 0x7ff) - 64;
  } else if (e == 0x7ff) {
    *exp = 0;
    return x;
  }
  *exp = e - 1022;
  bits = (bits & ~((uint64_t)0x7ff << 52)) | ((uint64_t)1022 << 52);
  memcpy(&x, &bits, sizeof x);
  return x;
}
