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
float sqrtf(float x) { return __builtin_sqrtf(x); }
double copysign(double x, double y) { return __builtin_copysign(x, y); }
double fmin(double x, double y) { return __builtin_fmin(x, y); }
double fmax(double x, double y) { return __builtin_fmax(x, y); }
float fabsf(float x) { return __builtin_fabsf(x); }

/* LLVM's frem (the runtime is built with -fno-math-errno): C's fmod, exact, and a
 * floating-point node on symbolic operands. remainder[f|l] is the engine's. */
double fmod(double x, double y) { return __builtin_fmod(x, y); }
float fmodf(float x, float y) { return __builtin_fmodf(x, y); }
long double fmodl(long double x, long double y) { return __builtin_fmodl(x, y); }

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

/*
 * glibc's classification functions that math.h's macros call in preprocessed
 * sources (SV-COMP's .i files): exact bit work, so symbolic floats stay
 * symbolic (each class is a path). Values as glibc's: FP_NAN 0, FP_INFINITE 1,
 * FP_ZERO 2, FP_SUBNORMAL 3, FP_NORMAL 4; __isinf gives -1 for -inf.
 */
static uint64_t bits64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static uint32_t bits32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static int classify(uint64_t exp, uint64_t exp_max, uint64_t mant) {
  if (exp == exp_max)
    return mant ? 0 : 1;
  if (exp == 0)
    return mant ? 3 : 2;
  return 4;
}
int __fpclassify(double x) {
  uint64_t u = bits64(x);
  return classify((u >> 52) & 0x7ff, 0x7ff, u & 0xfffffffffffffULL);
}
int __fpclassifyf(float x) {
  uint32_t u = bits32(x);
  return classify((u >> 23) & 0xff, 0xff, u & 0x7fffff);
}
int __isnan(double x) { return (bits64(x) & ~(1ULL << 63)) > 0x7ff0000000000000ULL; }
int __isnanf(float x) { return (bits32(x) & 0x7fffffffU) > 0x7f800000U; }
int __isinf(double x) {
  uint64_t u = bits64(x);
  if ((u & ~(1ULL << 63)) != 0x7ff0000000000000ULL)
    return 0;
  return (u >> 63) ? -1 : 1;
}
int __isinff(float x) {
  uint32_t u = bits32(x);
  if ((u & 0x7fffffffU) != 0x7f800000U)
    return 0;
  return (u >> 31) ? -1 : 1;
}
int __signbit(double x) { return (int)(bits64(x) >> 63); }
int __signbitf(float x) { return (int)(bits32(x) >> 31); }
int __finite(double x) { return (bits64(x) & ~(1ULL << 63)) < 0x7ff0000000000000ULL; }
int __finitef(float x) { return (bits32(x) & 0x7fffffffU) < 0x7f800000U; }
