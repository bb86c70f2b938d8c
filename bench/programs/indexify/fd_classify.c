/* Indexify floats (seed 004): __ieee754-style classification by float comparisons with
 * fabs, floor and fmod (written for sear). Each branch prints a marker. */
#include <math.h>
#include <stdio.h>
#include <klee/klee.h>

static const double tiny = 1.0e-300, huge = 1.0e300, half = 0.5, two = 2.0;

static const char *classify(double x) {
  if (x != x)
    return "nan";
  double a = fabs(x);
  if (a == 0.0)
    return x == 0.0 && 1.0 / x < 0.0 ? "minus-zero" : "zero";
  if (a < tiny)
    return "tiny";
  if (a > huge)
    return a == a + a ? "infinite" : "huge";
  double f = floor(x);
  if (f == x)
    return fmod(x, two) == 0.0 ? "even" : "odd";
  double frac = x - f;
  if (frac > half)
    return "upper";
  if (frac < half)
    return "lower";
  return "half";
}

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  const char *c = classify(x);
  puts(c);
  return x > 0.0 ? 1 : 0;
}
