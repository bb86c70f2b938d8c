/* Indexify floats (seed 004): floor by bit manipulation in the style of fdlibm's s_floor.c
 * (written for sear): the exponent decides the case, the fraction bits are cleared, and
 * the result is rebuilt from its words. Each branch prints a marker. */
#include <stdio.h>
#include <klee/klee.h>

#define HI(x) (*(1 + (int *)&(x)))
#define LO(x) (*(unsigned *)&(x))

static const double big = 1.0e300;

static double my_floor(double x) {
  int i0 = HI(x);
  unsigned i1 = LO(x);
  int j0 = ((i0 >> 20) & 0x7ff) - 0x3ff;
  if (j0 < 0) { /* |x| < 1 */
    puts("below-one");
    if (big + x > 0.0) {
      if (i0 >= 0) {
        puts("positive-fraction");
        return 0.0;
      }
      if (((i0 & 0x7fffffff) | i1) != 0) {
        puts("negative-fraction");
        return -1.0;
      }
    }
    return x;
  }
  if (j0 > 51) {
    puts(j0 == 0x400 ? "inf-or-nan" : "integral");
    return j0 == 0x400 ? x + x : x;
  }
  if (j0 < 20) {
    unsigned mask = 0x000fffffu >> j0;
    if (((i0 & mask) | i1) == 0) {
      puts("already-integral");
      return x;
    }
    puts("clear-high");
    if (i0 < 0)
      i0 += 0x00100000 >> j0;
    i0 &= ~mask;
    i1 = 0;
  } else {
    unsigned mask = 0xffffffffu >> (j0 - 20);
    if ((i1 & mask) == 0) {
      puts("already-integral-low");
      return x;
    }
    puts("clear-low");
    i1 &= ~mask;
  }
  double r = x;
  HI(r) = i0;
  LO(r) = i1;
  return r;
}

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  double r = my_floor(x);
  if (r < x)
    puts("rounded-down");
  else if (r == x)
    puts("unchanged");
  else
    puts("above");
  return 0;
}
