/* Indexify floats (seed 004): argument reduction in the style of fdlibm's __ieee754_rem_pio2
 * (written for sear): the magnitude is read from the high word of the double, the quadrant
 * from float comparisons, and the remainder is classified. Each branch prints a marker, so
 * the branch decisions of a test are its output (compared natively by sear replay). */
#include <stdio.h>
#include <klee/klee.h>

#define HI(x) (*(1 + (int *)&(x)))

static const double pio4 = 7.85398163397448278999e-01;
static const double pio2 = 1.57079632679489655800e+00;
static const double pi = 3.14159265358979311600e+00;
static const double three_pio2 = 4.71238898038468967400e+00;
static const double twopi = 6.28318530717958623200e+00;

/* x reduced into [-pi/4, pi/4]; the quadrant is returned */
static int reduce(double x, double *y) {
  int hx = HI(x);
  int ix = hx & 0x7fffffff;
  if (ix <= 0x3fe921fb) { /* |x| <= pi/4 (about) */
    puts("small");
    *y = x;
    return 0;
  }
  if (ix >= 0x7ff00000) { /* inf or NaN */
    puts("inf-or-nan");
    *y = x - x;
    return 0;
  }
  if (ix >= 0x41200000) { /* |x| >= 2^19: too large for this reduction */
    puts("large");
    *y = 0.0;
    return -1;
  }
  double a = hx < 0 ? -x : x;
  int q;
  if (a < 3.0 * pio4) {
    puts("q1");
    a = a - pio2;
    q = 1;
  } else if (a < 5.0 * pio4) {
    puts("q2");
    a = a - pi;
    q = 2;
  } else if (a < 7.0 * pio4) {
    puts("q3");
    a = a - three_pio2;
    q = 3;
  } else {
    puts("wrap");
    a = a - twopi;
    q = 0;
  }
  if (hx < 0) {
    puts("negative");
    a = -a;
    q = -q;
  }
  *y = a;
  return q;
}

int main(void) {
  double x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  int q = reduce(x, &y);
  if (y > 0.5)
    puts("rem>0.5");
  else if (y < -0.5)
    puts("rem<-0.5");
  else
    puts("rem-mid");
  return q & 3;
}
