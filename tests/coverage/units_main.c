/* sear coverage of a whole-program module linked from two units (units_main.c and
 * units_lib.c) with a wllvm-style manifest (crates/sear-cli/tests/coverage.rs): each unit is
 * measured on its own build. x is symbolic; sign() has three outcomes, all feasible. */
#include "klee/klee.h"

int sign(int x);

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  return sign(x) + 1;
}
